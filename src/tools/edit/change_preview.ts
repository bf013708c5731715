import { resolve } from 'node:path';
import { parsePatch, patchPaths, planPatch } from '../../edit/apply_patch/index.js';
import type { FileState } from '../../edit/apply_patch/types.js';
import type { ChangeContext, ChangePreview } from '../../tool/types.js';
import { compactDiff } from './compact_diff.js';
import { loadEditTarget } from './text_file.js';

/**
 * The change to one file, before it is made: `change` gets the file's text (undefined when it
 * does not exist) and returns the new text, or undefined when the edit would fail (the call then
 * says why). Undefined also when the file cannot be read as text.
 */
export async function previewFileChange(
  ctx: ChangeContext,
  path: string,
  change: (before: string | undefined) => string | undefined,
): Promise<ChangePreview | undefined> {
  const { path: absolute, shown, loaded } = await loadEditTarget(ctx, path);
  if (!loaded.ok && !loaded.missing) return undefined;
  const before = loaded.ok ? loaded.text : undefined;
  const after = change(before);
  if (after === undefined) return undefined;
  return {
    paths: [shown],
    diff: await compactDiff(shown, before ?? '', after),
    files: [{ path: absolute, oldText: before ?? null, newText: after }],
  };
}

/** The changes a patch would make, planned by the patch engine against the files as they are. */
export async function previewPatch(ctx: ChangeContext, patch: string): Promise<ChangePreview | undefined> {
  const parsed = parsePatch(patch);
  if (!parsed.ok) return undefined;
  const states = new Map<string, FileState>();
  const texts = new Map<string, string>();
  const absolutes = new Map<string, string>();
  for (const path of patchPaths(parsed.ops)) {
    const { path: absolute, loaded } = await loadEditTarget(ctx, path);
    absolutes.set(path, absolute);
    if (loaded.ok) {
      states.set(path, loaded.text);
      texts.set(path, loaded.text);
    } else states.set(path, loaded.missing ? null : 'directory');
  }
  const plan = planPatch(parsed.ops, states);
  if (!plan.ok) return undefined;
  const diffs: string[] = [];
  for (const change of plan.changes) {
    if (change.content === null) diffs.push(`--- ${change.path}\n(deleted)`);
    else diffs.push(await compactDiff(change.path, texts.get(change.path) ?? '', change.content));
  }
  return {
    paths: plan.changes.map((c) => c.path),
    diff: diffs.filter(Boolean).join('\n'),
    files: plan.changes.map((c) => ({
      path: absolutes.get(c.path) ?? resolve(ctx.cwd, c.path),
      oldText: texts.get(c.path) ?? null,
      newText: c.content,
    })),
  };
}
