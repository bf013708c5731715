import { existsSync, lstatSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ownWriteMark, wroteInside } from '../../util/own_writes.js';
import { isInside, realPathOf } from '../paths.js';
import { gitControlPaths, gitLayout } from './git_layout.js';
import type { SandboxPolicy } from './policy.js';

/** A protected path that no mount can cover (missing, or a link that could be swapped). */
export interface WatchedPath {
  path: string;
  before: { kind: 'missing' } | { kind: 'symlink'; target: string };
  /** lathe's own writes after this mark (an "always allow" saving settings) are not the command's. */
  mark: number;
}

/** How the sandbox keeps the protected paths of a workspace read-only. */
export interface ProtectionPlan {
  /** Real folders bound over themselves (writable in workspace-write mode), workspace first. */
  folders: string[];
  /** Real paths bound read-only over themselves, after the folders. */
  readOnly: string[];
  /** Checked again once the command has ended (see `undoProtectedChanges`). */
  watched: WatchedPath[];
}

/**
 * `.agents/`, lathe's settings and the parts of the repository that make git run programs
 * (config, hooks, info, commondir — a `.git` file followed to its real folder) stay read-only,
 * and so do the main checkout's HEAD and index when the workspace is a linked worktree.
 * Nothing is created in the user's tree: existing paths are bound read-only at their real
 * location; missing ones inside a writable folder are watched and undone after the command.
 * The git folders are bound over themselves so they cannot be renamed away and replaced.
 */
export function planProtection(policy: SandboxPolicy): ProtectionPlan {
  const workspace = realPathOf(policy.workspace);
  const folders = [workspace];
  const protectedPaths = [join(policy.workspace, '.agents'), join(policy.documentsRoot, 'settings')];
  const layout = gitLayout(policy.workspace);
  if (layout) {
    for (const dir of [layout.commonDir, layout.gitDir]) if (!folders.includes(dir)) folders.push(dir);
    // A `.git` file is bound read-only; a `.git` link cannot be, so it is watched.
    if (layout.kind === 'file') protectedPaths.push(layout.dotGit);
    protectedPaths.push(...gitControlPaths(layout));
    // A linked worktree's commands never move the main checkout's HEAD or change its index.
    if (layout.commonDir !== layout.gitDir)
      protectedPaths.push(join(layout.commonDir, 'HEAD'), join(layout.commonDir, 'index'));
  }
  const writable = policy.mode === 'workspace-write' ? folders : [];
  const readOnly: string[] = [];
  const watched: WatchedPath[] = [];
  const mark = ownWriteMark();
  const dotGitLink = layout?.kind === 'symlink' ? symlinkTarget(layout.dotGit) : undefined;
  if (layout && dotGitLink !== undefined)
    watched.push({ path: layout.dotGit, before: { kind: 'symlink', target: dotGitLink }, mark });
  for (const path of protectedPaths) {
    const link = symlinkTarget(path);
    if (link !== undefined) watched.push({ path, before: { kind: 'symlink', target: link }, mark });
    const real = realPathOf(path);
    if (existsSync(real)) {
      if (!readOnly.includes(real)) readOnly.push(real);
    } else if (writable.some((dir) => isInside(real, dir))) {
      watched.push({ path: real, before: { kind: 'missing' }, mark });
    }
  }
  return { folders, readOnly, watched };
}

function symlinkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Puts watched paths back as they were (removes what appeared, restores a swapped link) and
 * returns one line saying what was undone, or undefined when nothing changed.
 */
export function undoProtectedChanges(watched: readonly WatchedPath[], workspace: string): string | undefined {
  const undone: string[] = [];
  const failed: string[] = [];
  for (const { path, before, mark } of watched) {
    const now = symlinkTarget(path);
    const exists = now !== undefined || existsSync(path);
    const unchanged = before.kind === 'missing' ? !exists : now === before.target;
    if (unchanged) continue;
    // lathe wrote there itself while the command ran (a rule saved, an approved edit): keep it.
    if (before.kind === 'missing' && wroteInside(path, mark)) continue;
    try {
      rmSync(path, { recursive: true, force: true });
      if (before.kind === 'symlink') symlinkSync(before.target, path);
      undone.push(shown(path, workspace));
    } catch {
      failed.push(shown(path, workspace));
    }
  }
  if (undone.length === 0 && failed.length === 0) return undefined;
  const parts: string[] = [];
  if (undone.length > 0) parts.push(`undid the command's changes to ${undone.join(', ')}`);
  if (failed.length > 0) parts.push(`could not undo its changes to ${failed.join(', ')}`);
  return `The sandbox ${parts.join(' and ')}: protected paths are read-only for commands (change them with the file tools, which ask first).`;
}

function shown(path: string, workspace: string): string {
  const real = realPathOf(workspace);
  return isInside(path, real) ? relative(real, path) || '.' : path;
}
