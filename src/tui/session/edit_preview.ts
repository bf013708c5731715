import { parsePatch, patchPaths, planPatch } from '../../edit/apply_patch/index.js';
import type { FileState } from '../../edit/apply_patch/types.js';
import { exactReplace } from '../../edit/exact_replace.js';
import { replaceInFile } from '../../edit/search_replace/index.js';
import { compactDiff } from '../../tools/edit/compact_diff.js';
import { loadEditTarget } from '../../tools/edit/text_file.js';

type Folders = { cwd: string; workspace: string };

/**
 * The unified diff an edit tool would make, computed with the tool's own engine before it runs,
 * so the approval shows exactly what will change. Undefined when the tool is not an edit or the
 * edit would fail (the tool then reports why).
 */
export async function previewEdit(
  name: string,
  input: unknown,
  folders: Folders,
): Promise<string | undefined> {
  const args = (input ?? {}) as Record<string, unknown>;
  const text = (key: string) => (typeof args[key] === 'string' ? (args[key] as string) : undefined);
  try {
    switch (name) {
      case 'write_to_file':
        return await diffAgainstFile(folders, text('path'), () => text('content'));
      case 'new_rule': {
        const rule = text('name');
        return rule
          ? await diffAgainstFile(folders, `.agents/rules/${rule}.md`, () => text('content'))
          : undefined;
      }
      case 'edit_file':
        return await diffAgainstFile(folders, text('path'), (before) => {
          const result = exactReplace(
            before ?? '',
            text('old_string') ?? '',
            text('new_string') ?? '',
            args.replace_all === true,
          );
          return result.ok ? result.content : before === undefined ? text('new_string') : undefined;
        });
      case 'replace_in_file':
        return await diffAgainstFile(folders, text('path'), (before) => {
          if (before === undefined) return undefined;
          const result = replaceInFile(before, text('diff') ?? '');
          return result.ok ? result.content : undefined;
        });
      case 'apply_patch':
        return await previewPatch(folders, text('input') ?? '');
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}

async function diffAgainstFile(
  folders: Folders,
  path: string | undefined,
  change: (before: string | undefined) => string | undefined,
): Promise<string | undefined> {
  if (!path) return undefined;
  const { shown, loaded } = await loadEditTarget(folders, path);
  if (!loaded.ok && !loaded.missing) return undefined;
  const before = loaded.ok ? loaded.text : undefined;
  const after = change(before);
  if (after === undefined) return undefined;
  return compactDiff(shown, before ?? '', after);
}

async function previewPatch(folders: Folders, patch: string): Promise<string | undefined> {
  const parsed = parsePatch(patch);
  if (!parsed.ok) return undefined;
  const states = new Map<string, FileState>();
  const texts = new Map<string, string>();
  for (const path of patchPaths(parsed.ops)) {
    const { loaded } = await loadEditTarget(folders, path);
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
  return diffs.filter(Boolean).join('\n');
}
