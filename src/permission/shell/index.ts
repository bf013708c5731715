export { type CommandPlaces, commandPlaces, type NamedPath } from './arguments.js';
export { gitRepositoryProblem } from './git_repository.js';
export { networkProblem } from './network.js';
export { parseShellCommand } from './parse.js';
export {
  classifyParsed,
  classifyShellCommand,
  isReadOnlySubcommand,
  type ShellClassification,
  writtenTargets,
} from './readonly.js';
export type { Assignment, ParsedCommand, Redirect, Subcommand, Word } from './types.js';
