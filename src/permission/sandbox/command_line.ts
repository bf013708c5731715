import { existsSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { isInside, realPathOf } from '../paths.js';
import type { SandboxPolicy, WrappedCommand } from './policy.js';
import { planProtection, undoProtectedChanges } from './protection.js';

export interface WrapOptions {
  /** Run in a user namespace of its own (`--unshare-user`); the probe says whether that works here. */
  unshareUser?: boolean;
  /** Real paths of files bound over with `emptyFile` (read-deny masking). */
  masked?: readonly string[];
  emptyFile?: string;
  /** Service sockets bound over with /dev/null. */
  sockets?: readonly string[];
}

/**
 * Temp folders shared with other programs, where servers keep their sockets (tmux, ssh-agent,
 * per-user services): each gets a private, empty tmpfs inside. Never the home folder or `/`.
 */
function sharedTempFolders(): string[] {
  const home = realPathOf(homedir());
  const folders: string[] = [];
  for (const dir of ['/tmp', '/var/tmp', tmpdir(), '/run/user']) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) continue;
    const real = realPathOf(dir);
    if (real === '/' || isInside(home, real)) continue;
    if (folders.some((f) => isInside(real, f))) continue;
    folders.push(real);
  }
  return folders;
}

/**
 * The bubblewrap command line for a policy: the whole filesystem read-only, private temp
 * folders, the workspace writable (workspace-write) with its protected paths read-only on top
 * (see `planProtection`), read-denied files masked, no capabilities, no network unless allowed,
 * its own PID namespace so the whole tree dies with it.
 */
export function wrapCommand(
  policy: SandboxPolicy,
  argv: string[],
  cwd: string,
  options: WrapOptions = {},
): WrappedCommand {
  const plan = planProtection(policy);
  const args = ['--die-with-parent', '--unshare-pid'];
  if (options.unshareUser ?? true) args.push('--unshare-user');
  args.push('--cap-drop', 'ALL', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
  for (const dir of sharedTempFolders()) args.push('--tmpfs', dir);
  for (const socket of options.sockets ?? []) args.push('--ro-bind', '/dev/null', socket);
  const bind = policy.mode === 'workspace-write' ? '--bind' : '--ro-bind';
  for (const dir of plan.folders) args.push(bind, dir, dir);
  for (const path of plan.readOnly) args.push('--ro-bind', path, path);
  if (options.emptyFile)
    for (const file of options.masked ?? []) args.push('--ro-bind', options.emptyFile, file);
  if (!policy.network) args.push('--unshare-net');
  args.push('--setenv', 'TMPDIR', '/tmp', '--chdir', cwd, '--', ...argv);
  return {
    argv: [policy.bwrapPath ?? 'bwrap', ...args],
    cleanup: () => undoProtectedChanges(plan.watched, policy.workspace),
  };
}
