export { AgentHooks } from './agent_hooks.js';
export { HookSet } from './hook_set.js';
export { toolHooks } from './tool_hooks.js';
export type { HookVerdict } from './verdict.js';
