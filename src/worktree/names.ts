import { randomBytes } from 'node:crypto';

/** Every worktree's branch lives under this prefix, so lathe's branches never mix with the user's. */
export const BRANCH_PREFIX = 'lathe/';

const NAME = /^[A-Za-z0-9._-]+$/;
const MAX_NAME = 64;

/**
 * Why `name` cannot name a worktree (its folder and its branch `lathe/<name>`), or undefined.
 * Only letters, digits, `.`, `_` and `-`; nothing git refuses in a branch name.
 */
export function nameProblem(name: string): string | undefined {
  const rules = 'use letters, digits, ".", "_" and "-" (at most 64), not starting with "." or "-"';
  if (name.length === 0) return `a worktree name cannot be empty: ${rules}`;
  if (name.length > MAX_NAME || !NAME.test(name)) return `"${name}" is not a valid worktree name: ${rules}`;
  if (name.includes('..') || /^[.-]/.test(name) || name.endsWith('.') || name.endsWith('.lock'))
    return `"${name}" is not a valid worktree name: ${rules}, without "..", not ending in "." or ".lock"`;
  return undefined;
}

/** A fresh name when the caller gives none: `wt-` and six hex digits. */
export function newWorktreeName(): string {
  return `wt-${randomBytes(3).toString('hex')}`;
}

export function branchFor(name: string): string {
  return `${BRANCH_PREFIX}${name}`;
}
