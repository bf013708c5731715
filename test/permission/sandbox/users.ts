// Runs the real sandbox as root and as the unprivileged user `nobody`: bubblewrap is started
// through a launcher that drops to nobody, so the probe and every command run as that user.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Mode } from '../../../src/config/types.js';
import type { SandboxPolicy } from '../../../src/permission/sandbox/bubblewrap.js';
import { Sandbox } from '../../../src/permission/sandbox/runner.js';
import { collectProcess } from '../../../src/util/collect_process.js';

export interface SandboxUser {
  name: 'root' | 'nobody';
  /** Why this user's case cannot run here (it is skipped with this reason). */
  unavailable?: string;
  /** The launcher for `bwrapPath`, undefined for plain bwrap. */
  bwrapPath?: string;
  /** Prefix that runs a command bare as this user. */
  asUser: string[];
}

const DROP_TO_NOBODY = ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups', '--'];

function nobodyUser(): SandboxUser {
  const asUser = DROP_TO_NOBODY;
  if (process.getuid?.() !== 0) {
    return {
      name: 'nobody',
      asUser,
      unavailable: 'the tests do not run as root, so they cannot switch to nobody',
    };
  }
  const check = spawnSync(
    DROP_TO_NOBODY[0],
    [...DROP_TO_NOBODY.slice(1), 'bwrap', '--ro-bind', '/', '/', 'true'],
    {
      encoding: 'utf8',
    },
  );
  if (check.status !== 0) {
    return {
      name: 'nobody',
      asUser,
      unavailable: `bubblewrap does not start as nobody here: ${(check.stderr || check.error?.message || '').trim()}`,
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'lathe-bwrap-nobody-'));
  chmodSync(dir, 0o755);
  const launcher = join(dir, 'bwrap');
  writeFileSync(launcher, `#!/bin/sh\nexec ${DROP_TO_NOBODY.join(' ')} bwrap "$@"\n`, { mode: 0o755 });
  return { name: 'nobody', asUser, bwrapPath: launcher };
}

export const USERS: SandboxUser[] = [{ name: 'root', asUser: [] }, nobodyUser()];

/** A folder every test user may read and write (mode 0777), real path. */
export function sharedDir(prefix: string, base = tmpdir()): string {
  const dir = mkdtempSync(join(base, prefix));
  chmodSync(dir, 0o777);
  return dir;
}

/** Writes files (path → content) under `dir`, world-writable so only the sandbox can stop a write. */
export function writeShared(dir: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, content);
  }
  openUp(dir);
}

/** Makes everything under `dir` readable and writable by every user. */
export function openUp(dir: string): void {
  spawnSync('chmod', ['-R', 'a+rwX', dir]);
}

export function sandboxFor(
  user: SandboxUser,
  policy: Partial<SandboxPolicy> & { workspace: string },
  agentMode?: () => Mode,
): Sandbox {
  return new Sandbox(
    {
      mode: 'workspace-write',
      network: false,
      documentsRoot: sharedDir('lathe-home-'),
      bwrapPath: user.bwrapPath,
      ...policy,
    },
    { agentMode },
  );
}

export interface SandboxedRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** What `cleanup()` said it undid. */
  undone?: string;
}

/** Runs `bash -c command` through `sandbox.wrap`, as `exec` would; fails if it ran bare. */
export async function runSandboxed(
  sandbox: Sandbox,
  command: string,
  options: { cwd?: string; agentMode?: Mode } = {},
): Promise<SandboxedRun> {
  const cwd = options.cwd ?? sandbox.policy.workspace;
  const wrapped = await sandbox.wrap(['bash', '-c', command], cwd, { agentMode: options.agentMode });
  if (!wrapped)
    throw new Error(`the sandbox did not wrap the command: ${JSON.stringify(await sandbox.check())}`);
  const result = await runProcess(wrapped.argv);
  return { ...result, undone: wrapped.cleanup() };
}

/** Runs argv bare and collects its output; a program that cannot start fails the test. */
export async function runProcess(argv: string[]): Promise<Omit<SandboxedRun, 'undone'>> {
  const { error, ...result } = await collectProcess(argv);
  if (error) throw error;
  return result;
}
