export { parseShellCommand } from './parse.js';
export {
  classifyParsed,
  classifyShellCommand,
  type ShellClassification,
  writtenTargets,
} from './readonly.js';
export type { Assignment, ParsedCommand, Redirect, Subcommand, Word } from './types.js';
