export type {
  Elicit,
  ElicitationAnswer,
  ElicitationRequest,
  ElicitedField,
  ElicitedValue,
} from './mcp/elicitation.js';
export { createRuntime, type Runtime, RuntimeError, type RuntimeOptions } from './runtime/create_runtime.js';
export { UsageError } from './sdk/errors.js';
export type * from './sdk/messages.js';
export type {
  CanUseTool,
  HookFunctionGroup,
  McpServerOption,
  PermissionAnswer,
  PermissionQuestion,
  QueryOptions,
} from './sdk/options.js';
export { type Query, query } from './sdk/query.js';
export { type ToolHandlerResult, type ToolOptions, tool } from './sdk/tool.js';
export { buildTool } from './tool/build_tool.js';
export type * from './tool/context/agent.js';
export type * from './tool/context/background_commands.js';
export type * from './tool/context/editor.js';
export type * from './tool/context/mcp.js';
export type * from './tool/context/schedules.js';
export type * from './tool/context/tasks.js';
export { executeToolCalls, ToolExecution } from './tool/executor.js';
export { assemblePool, findTool } from './tool/pool.js';
export type { ApprovalAnswer, ApprovalRequest, ToolCall } from './tool/run_call.js';
export type * from './tool/types.js';
