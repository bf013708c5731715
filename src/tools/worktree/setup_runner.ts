import { join } from 'node:path';
import type { ToolContext } from '../../tool/types.js';
import { type SetupRunner, WorktreeError } from '../../worktree/index.js';
import { startProcess } from '../exec/run_process.js';
import { shellArgv } from '../tasks/shell_run.js';

/** Bytes of a setup command's output kept for its error message; the whole of it is on disk. */
const KEEP_BYTES = 8_000;

/**
 * Runs a new worktree's setup commands (they come from the repository) only inside the OS
 * sandbox, with the worktree as the writable root. Where the sandbox is off or does not work,
 * it refuses, so the worktree is not made: such commands never run bare.
 */
export function sandboxedSetup(ctx: ToolContext, name: string): SetupRunner {
  return async (command, dir) => {
    const argv = shellArgv(command);
    const wrapped = await ctx.sandbox?.wrap(argv, dir, { workspace: dir });
    if (!wrapped)
      throw new WorktreeError(
        `setup command "${command}" runs only in the sandbox, which is off or does not work here ` +
          '(see lathe doctor); run it yourself in the worktree, or remove it from .agents/worktree.json',
      );
    const running = startProcess({
      argv: wrapped.argv,
      cwd: dir,
      outputPath: join(ctx.sessionDir, `worktree-setup-${name}.log`),
      keepBytes: KEEP_BYTES,
      maxOutputBytes: ctx.maxOutputBytes,
      signal: ctx.signal,
    });
    const outcome = await running.done;
    wrapped.cleanup();
    return { exitCode: outcome.exitCode, output: outcome.output.preview().text };
  };
}
