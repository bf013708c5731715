export { createRuntime, type Runtime, RuntimeError, type RuntimeOptions } from './runtime/create_runtime.js';
export { buildTool } from './tool/build_tool.js';
export { executeToolCalls, ToolExecution } from './tool/executor.js';
export { assemblePool, findTool } from './tool/pool.js';
export type { ApprovalAnswer, ApprovalRequest, ToolCall } from './tool/run_call.js';
export type * from './tool/types.js';
