import { wrapCommand } from '../permission/sandbox/command_line.js';
import { probeBubblewrap } from '../permission/sandbox/probe.js';
import { collectProcess } from '../util/collect_process.js';
import type { SetupRunner } from '../worktree/project_files.js';

/**
 * Whether this machine can run jobs in the sandbox (bubblewrap starts and drops every
 * capability): `problem` says why not; `unshareUser` whether commands get a user namespace.
 */
export async function probeJobSandbox(
  documentsRoot: string,
  workspace: string,
): Promise<{ problem?: string; unshareUser: boolean }> {
  const probe = await probeBubblewrap({ mode: 'workspace-write', network: false, workspace, documentsRoot });
  return probe.status.active
    ? { unshareUser: probe.unshareUser }
    : { problem: probe.status.reason, unshareUser: false };
}

/**
 * Runs a job's setup command in bubblewrap with the worktree as its only writable folder. The
 * network stays on: setup commands install dependencies (`npm ci`).
 */
export function sandboxedJobSetup(documentsRoot: string, unshareUser: boolean): SetupRunner {
  return async (command, dir) => {
    const wrapped = wrapCommand(
      { mode: 'workspace-write', network: true, workspace: dir, documentsRoot },
      ['bash', '-c', command],
      dir,
      { unshareUser },
    );
    const run = await collectProcess(wrapped.argv, { cwd: dir });
    wrapped.cleanup();
    return { exitCode: run.code, output: `${run.stdout}${run.stderr}` };
  };
}
