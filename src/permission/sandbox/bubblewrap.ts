import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realPathOf } from '../paths.js';

export type SandboxMode = 'read-only' | 'workspace-write' | 'off';

export interface SandboxPolicy {
  mode: SandboxMode;
  network: boolean;
  workspace: string;
  documentsRoot: string;
  bwrapPath?: string;
}

export interface WrappedCommand {
  argv: string[];
  /** Undo what preparing the sandbox left on disk (empty mount points it had to create). */
  cleanup(): void;
}

/** Folders that stay read-only inside the workspace, even when they do not exist yet. */
function protectedFolders(policy: SandboxPolicy): string[] {
  const folders = [join(policy.workspace, '.agents'), join(policy.documentsRoot, 'settings')];
  if (existsSync(join(policy.workspace, '.git'))) folders.push(join(policy.workspace, '.git', 'hooks'));
  return folders;
}

/** Temp folders a command may write in (workspace-write mode). */
function tempFolders(): string[] {
  return [
    ...new Set([tmpdir(), '/tmp', '/var/tmp'].filter((dir) => existsSync(dir)).map((dir) => realPathOf(dir))),
  ];
}

/**
 * The bubblewrap command line for a policy: the whole filesystem read-only, the workspace and
 * temp folders writable (workspace-write), `.agents/`, `.git/hooks` and lathe's settings
 * read-only again on top (a settings or hook file written from inside would later run with the
 * user's rights), no network unless allowed, its own PID namespace so the whole tree dies with it.
 */
export function wrapCommand(policy: SandboxPolicy, argv: string[], cwd: string): WrappedCommand {
  const created: string[] = [];
  const args = [
    '--die-with-parent',
    '--unshare-pid',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
  ];
  if (policy.mode === 'workspace-write') {
    for (const dir of tempFolders()) args.push('--bind', dir, dir);
    args.push('--bind', policy.workspace, policy.workspace);
    for (const dir of protectedFolders(policy)) {
      // A read-only mount needs an existing mount point; one made here is removed afterwards.
      if (!existsSync(dir)) {
        mkdirSync(dir, { recursive: true });
        created.push(dir);
      }
      args.push('--ro-bind', dir, dir);
    }
  } else {
    args.push('--tmpfs', '/tmp');
  }
  if (!policy.network) args.push('--unshare-net');
  args.push('--chdir', cwd, '--', ...argv);
  return {
    argv: [policy.bwrapPath ?? 'bwrap', ...args],
    cleanup() {
      for (const dir of created.reverse()) {
        try {
          if (readdirSync(dir).length === 0) rmdirSync(dir);
        } catch {
          // already gone
        }
      }
    },
  };
}

export type SandboxStatus = { active: true } | { active: false; reason: string };

/** Runs `true` in the sandbox once, to know whether it works here. */
export function probeSandbox(policy: SandboxPolicy): Promise<SandboxStatus> {
  if (policy.mode === 'off')
    return Promise.resolve({ active: false, reason: 'the sandbox is off (--sandbox off)' });
  if (process.platform !== 'linux') {
    return Promise.resolve({ active: false, reason: `no sandbox on ${process.platform} yet` });
  }
  const probe = wrapCommand({ ...policy, mode: 'read-only' }, ['true'], '/');
  return new Promise((resolve) => {
    const child = spawn(probe.argv[0], probe.argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      resolve({
        active: false,
        reason:
          error.code === 'ENOENT'
            ? 'bubblewrap (bwrap) is not installed'
            : `bubblewrap failed to start: ${error.message}`,
      });
    });
    child.on('close', (code) => {
      if (code === 0) resolve({ active: true });
      else
        resolve({
          active: false,
          reason: `bubblewrap does not work here: ${stderr.trim().split('\n')[0] || `exit ${code}`}`,
        });
    });
  });
}
