export { shellQuote, splitArguments } from './arguments.js';
export { CommandCatalog, type Invocation, parseInvocation } from './catalog.js';
export { type CommandDiscoveryOptions, discoverCommands } from './discover.js';
export {
  type ExpandContext,
  ExpandError,
  type ExpandedPrompt,
  type PromptCommand,
} from './prompt_command.js';
export type { CommandDiscovery, Workflow, WorkflowScript } from './types.js';
