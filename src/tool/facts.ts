import type { ShellClassification } from '../permission/shell/index.js';

/**
 * A shell command as the parse step found it: classified, or the reason it could not be parsed.
 * An unparsed command is never read-only and no pattern rule covers it: it asks.
 */
export type CommandFacts =
  | { text: string; parsed: true; classification: ShellClassification }
  | { text: string; parsed: false; reason: string };

/**
 * What the parse step learned of one call beyond its schema. The contract methods
 * (`isReadOnly`, `isConcurrencySafe`, `permissionSubject`) answer from the input and these
 * facts alone, so every caller that parses a call gets the same answers.
 */
export interface CallFacts {
  /** The shell command the call runs (execute_command, task_create, monitor). */
  readonly command?: CommandFacts;
}

/** The facts of a tool that learns nothing beyond its schema. */
export const NO_FACTS: CallFacts = Object.freeze({});
