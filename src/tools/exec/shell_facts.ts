import type { ShellClassification } from '../../permission/shell/index.js';
import { writtenTargets } from '../../permission/shell/readonly.js';
import type { PermissionSubject } from '../../tool/types.js';

/** Classifications by command text, so the synchronous contract methods can answer. */
const known = new Map<string, ShellClassification>();
const MAX_KNOWN = 500;

export async function classify(command: string): Promise<ShellClassification> {
  const cached = known.get(command);
  if (cached) return cached;
  const { classifyShellCommand } = await import('../../permission/shell/index.js');
  const result = await classifyShellCommand(command);
  if (known.size >= MAX_KNOWN) known.delete(known.keys().next().value!);
  known.set(command, result);
  return result;
}

/** The classification when it was made already; unknown commands count as not read-only. */
export function knownClassification(command: string): ShellClassification | undefined {
  return known.get(command);
}

/**
 * The permission facts of running `command` (in `cwd`, when not the working folder): its
 * subcommands for rules, what each writes, and the parsed subcommands the engine inspects.
 */
export function commandSubject(command: string, cwd?: string): PermissionSubject {
  const facts = knownClassification(command);
  const parsed = facts !== undefined && facts.subcommands.length > 0;
  return {
    kind: 'execute',
    subjects: parsed ? facts.subcommands.map((s) => s.text) : [command],
    // An unparsed command may write anywhere: no pattern rule covers it.
    writes: parsed ? facts.subcommands.map(writtenTargets) : [['(unparsed command)']],
    readOnlyCommand: facts?.readOnly === true,
    ...(parsed ? { commands: facts.subcommands } : {}),
    ...(cwd !== undefined ? { cwd } : {}),
  };
}
