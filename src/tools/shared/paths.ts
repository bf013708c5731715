import { stat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { expandHome } from '../../permission/paths.js';
import type { ToolContext } from '../../tool/types.js';
import { leavesFolder } from '../../util/inside_folder.js';

/** The absolute path a tool's `path` argument names (relative to the working folder, or absolute). */
export function absolutePath(ctx: Pick<ToolContext, 'cwd'>, p: string): string {
  return resolve(ctx.cwd, expandHome(p));
}

/** How a path is shown to the model: relative to the workspace when inside it, else absolute. */
export function displayPath(ctx: Pick<ToolContext, 'workspace'>, absolute: string): string {
  const rel = relative(ctx.workspace, absolute);
  if (rel === '') return '.';
  return leavesFolder(rel) ? absolute : rel;
}

export type PathKind = 'file' | 'directory' | 'other' | 'missing';

export async function pathKind(absolute: string): Promise<{ kind: PathKind; size: number; mtimeMs: number }> {
  try {
    const s = await stat(absolute);
    const kind = s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other';
    return { kind, size: s.size, mtimeMs: s.mtimeMs };
  } catch {
    return { kind: 'missing', size: 0, mtimeMs: 0 };
  }
}

/** An error message for a path that is not what a tool needs. */
export function pathProblem(shown: string, kind: PathKind, wanted: 'file' | 'directory'): string | undefined {
  if (kind === wanted) return undefined;
  if (kind === 'missing') return `${shown} does not exist. Check the path with list_files or glob.`;
  if (wanted === 'file' && kind === 'directory')
    return `${shown} is a folder, not a file. Use list_files to see what it holds.`;
  if (wanted === 'directory' && kind === 'file')
    return `${shown} is a file, not a folder. Use read_file to read it.`;
  return `${shown} is not a regular ${wanted}.`;
}

/** validateInput for tools that take a folder (default: the working folder). */
export async function folderProblem(
  ctx: Pick<ToolContext, 'cwd'>,
  path: string | undefined,
): Promise<string | undefined> {
  const shown = path ?? '.';
  return pathProblem(shown, (await pathKind(absolutePath(ctx, shown))).kind, 'directory');
}

/** validateInput for tools that take a file or a folder that must exist. */
export async function missingProblem(
  ctx: Pick<ToolContext, 'cwd'>,
  path: string | undefined,
): Promise<string | undefined> {
  const shown = path ?? '.';
  const { kind } = await pathKind(absolutePath(ctx, shown));
  return kind === 'missing' ? pathProblem(shown, kind, 'file') : undefined;
}

/**
 * A count with thousands separators (12,345), as `toLocaleString('en-US')` writes it — without
 * it: the first Intl call loads ICU data, tens of milliseconds that tool descriptions built at
 * start-up would add to every run.
 */
export function formatCount(n: number): string {
  if (!Number.isInteger(n)) return String(n);
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return n < 0 ? `-${digits}` : digits;
}
