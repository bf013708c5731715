export { BUILT_IN_TYPES } from './built_in.js';
export { discoverAgentTypes } from './discover.js';
export { SMALL_MODEL } from './model_names.js';
export type { AgentOrigin, AgentType, Discovery, DiscoveryOptions } from './types.js';
