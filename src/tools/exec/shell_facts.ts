import { writtenTargets } from '../../permission/shell/readonly.js';
import { type CallFacts, type CommandFacts, NO_FACTS } from '../../tool/facts.js';
import type { PermissionSubject } from '../../tool/types.js';

/**
 * Parses and classifies a shell command: the parse step of the tools that run one. A command that
 * cannot be parsed (or a parser that fails to load) is a fact with its reason, never an error.
 */
export async function parseCommandFacts(command: string): Promise<CommandFacts> {
  try {
    // Loaded on the first command: the grammar is not needed to start.
    const { classifyParsed, parseShellCommand } = await import('../../permission/shell/index.js');
    const parsed = await parseShellCommand(command);
    if (!parsed.ok) return { text: command, parsed: false, reason: parsed.reason };
    return { text: command, parsed: true, classification: classifyParsed(parsed) };
  } catch (error) {
    return { text: command, parsed: false, reason: (error as Error)?.message ?? String(error) };
  }
}

/** The facts of a call that may run a command (none when it runs no command). */
export async function commandCallFacts(command: string | undefined): Promise<CallFacts> {
  return command === undefined ? NO_FACTS : { command: await parseCommandFacts(command) };
}

/** The facts of `command` among the call's; facts of another command (or none) count as not parsed. */
function factsOf(facts: CallFacts, command: string): CommandFacts {
  const found = facts.command;
  if (found?.text === command) return found;
  return { text: command, parsed: false, reason: 'the command was not parsed before this check' };
}

/** Whether the call's command only reads; an unparsed command does not. */
export function isReadOnlyCommand(facts: CallFacts, command: string): boolean {
  const found = factsOf(facts, command);
  return found.parsed && found.classification.readOnly;
}

/**
 * The permission facts of running `command` (in `cwd`, when not the working folder): its
 * subcommands for rules, what each writes, and the parsed subcommands the engine inspects. An
 * unparsed command may write anywhere: no pattern rule covers it, and the ask says why.
 */
export function commandSubject(facts: CallFacts, command: string, cwd?: string): PermissionSubject {
  const found = factsOf(facts, command);
  const where = cwd !== undefined ? { cwd } : {};
  if (!found.parsed) {
    return {
      kind: 'execute',
      subjects: [command],
      writes: [['(unparsed command)']],
      readOnlyCommand: false,
      unparsed: found.reason,
      ...where,
    };
  }
  const { subcommands, readOnly } = found.classification;
  const some = subcommands.length > 0;
  return {
    kind: 'execute',
    subjects: some ? subcommands.map((s) => s.text) : [command],
    writes: some ? subcommands.map(writtenTargets) : [['(unparsed command)']],
    readOnlyCommand: readOnly,
    ...(some ? { commands: subcommands } : {}),
    ...where,
  };
}
