export { type Runtime, RuntimeError, type RuntimeOptions, createRuntime } from './runtime/create_runtime.js';
export { buildTool } from './tool/build_tool.js';
export { assemblePool, findTool } from './tool/pool.js';
export { executeToolCalls, ToolExecution } from './tool/executor.js';
export type { ToolCall, ApprovalRequest, ApprovalAnswer } from './tool/run_call.js';
export type * from './tool/types.js';
