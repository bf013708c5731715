import { isInside, realPathOf } from '../../permission/paths.js';
import type { ToolContext } from '../../tool/types.js';
import { type RunningProcess, startProcess } from '../exec/run_process.js';
import { absolutePath, pathKind } from '../shared/paths.js';

export { commandCallFacts, commandSubject, isReadOnlyCommand } from '../exec/shell_facts.js';

/** Bytes of head and tail kept in memory; the whole output is on disk. */
const KEEP_BYTES = 12_000;

/** What task_create and monitor run a command with: bash, or PowerShell on Windows. */
export function shellArgv(command: string): string[] {
  return process.platform === 'win32'
    ? ['powershell.exe', '-NoProfile', '-NonInteractive', '-Command', command]
    : ['bash', '-c', command];
}

/** Why `cwd` cannot be a command's folder, or undefined. */
export async function cwdProblem(ctx: ToolContext, cwd: string | undefined): Promise<string | undefined> {
  if (cwd === undefined) return undefined;
  const folder = absolutePath(ctx, cwd);
  if (!isInside(realPathOf(folder), ctx.workspace))
    return `cwd ${cwd} is outside the workspace; commands run inside it.`;
  if ((await pathKind(folder)).kind !== 'directory') return `cwd ${cwd} is not a folder.`;
  return undefined;
}

/**
 * Starts a shell command in the OS sandbox when there is one, in its own process group, its
 * output streamed to `outputPath`.
 */
export async function startShellCommand(
  ctx: ToolContext,
  options: { command: string; cwd?: string; outputPath: string; timeoutMs?: number; signal?: AbortSignal },
): Promise<RunningProcess> {
  const cwd = options.cwd ? absolutePath(ctx, options.cwd) : ctx.cwd;
  const argv = shellArgv(options.command);
  const wrapped = await ctx.sandbox?.wrap(argv, cwd);
  const running = startProcess({
    argv: wrapped?.argv ?? argv,
    cwd,
    outputPath: options.outputPath,
    keepBytes: KEEP_BYTES,
    maxOutputBytes: ctx.maxOutputBytes,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  });
  void running.done.then(() => wrapped?.cleanup());
  return running;
}
