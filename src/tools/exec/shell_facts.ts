import type { ShellClassification } from '../../permission/shell/index.js';

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
