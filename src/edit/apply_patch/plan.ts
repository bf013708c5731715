import type { FileState, PatchOp, PlannedChange, PlanResult } from './types.js';
import { updateFileContent } from './update_file.js';

/** Every path the patch reads or writes, in order of first mention, without duplicates. */
export function patchPaths(ops: readonly PatchOp[]): string[] {
  const paths = new Set<string>();
  for (const op of ops) {
    paths.add(op.path);
    if (op.kind === 'update' && op.moveTo !== null) paths.add(op.moveTo);
  }
  return [...paths];
}

/**
 * Computes the whole effect of a patch without touching the disk. Ops run in order against a
 * virtual copy of the files (so a later op sees an earlier one's result, as in the reference),
 * but the outcome is all or nothing: any failing op refuses the whole patch.
 *
 * `files` must hold the state of every path in `patchPaths(ops)`.
 */
export function planPatch(ops: readonly PatchOp[], files: ReadonlyMap<string, FileState>): PlanResult {
  const state = new Map<string, FileState>();
  const read = (path: string): FileState | undefined => (state.has(path) ? state.get(path) : files.get(path));
  const summary: string[] = [];

  for (const [index, op] of ops.entries()) {
    const hunk = `hunk ${index + 1} (patch line ${op.line})`;
    const current = read(op.path);
    if (current === undefined) return refuse(`${op.path}: ${hunk}: the file's current state was not loaded.`);

    if (op.kind === 'add') {
      if (current === 'directory')
        return refuse(`${op.path}: ${hunk}: cannot add a file: a directory exists there.`);
      state.set(op.path, op.content);
      summary.push(`A ${op.path}`);
      continue;
    }
    if (op.kind === 'delete') {
      if (current === null) return refuse(`${op.path}: ${hunk}: cannot delete: the file does not exist.`);
      if (current === 'directory') {
        return refuse(
          `${op.path}: ${hunk}: cannot delete: it is a directory (apply_patch deletes files only).`,
        );
      }
      state.set(op.path, null);
      summary.push(`D ${op.path}`);
      continue;
    }

    if (current === null) {
      return refuse(
        `${op.path}: ${hunk}: cannot update: the file does not exist. Use '*** Add File: ${op.path}' to create it.`,
      );
    }
    if (current === 'directory') return refuse(`${op.path}: ${hunk}: cannot update: it is a directory.`);
    const updated = updateFileContent(op.path, current, op.chunks, hunk);
    if (!updated.ok) return refuse(updated.error);
    const counts = `(+${updated.added} -${updated.removed})`;
    if (op.moveTo === null || op.moveTo === op.path) {
      state.set(op.path, updated.content);
      summary.push(`M ${op.path} ${counts}`);
      continue;
    }
    const destination = read(op.moveTo);
    if (destination === undefined) {
      return refuse(`${op.moveTo}: ${hunk}: the move destination's current state was not loaded.`);
    }
    if (destination === 'directory') {
      return refuse(`${op.moveTo}: ${hunk}: cannot move ${op.path} there: a directory exists at that path.`);
    }
    state.set(op.moveTo, updated.content);
    state.set(op.path, null);
    summary.push(`M ${op.path} -> ${op.moveTo} ${counts}`);
  }

  return { ok: true, changes: changesBetween(files, state, patchPaths(ops)), summary };
}

/** Writes first, then deletions: a crash mid-way never loses a moved file's only copy. */
function changesBetween(
  before: ReadonlyMap<string, FileState>,
  after: ReadonlyMap<string, FileState>,
  paths: readonly string[],
): PlannedChange[] {
  const writes: PlannedChange[] = [];
  const deletions: PlannedChange[] = [];
  for (const path of paths) {
    if (!after.has(path)) continue;
    const final = after.get(path) as string | null;
    if (final === before.get(path)) continue;
    if (final === null) deletions.push({ path, content: null });
    else writes.push({ path, content: final });
  }
  return [...writes, ...deletions];
}

function refuse(error: string): PlanResult {
  return { ok: false, error };
}
