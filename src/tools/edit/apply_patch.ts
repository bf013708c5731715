import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { parsePatch, patchPaths, planPatch } from '../../edit/apply_patch/index.js';
import type { FileState, PatchOp } from '../../edit/apply_patch/types.js';
import { type ExpectedContent, WriteRefusedError } from '../../edit/atomic_write.js';
import { checkEncodable, encodeText, type TextFormat } from '../../edit/codec.js';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import type { ToolContext } from '../../tool/types.js';
import { absolutePath, displayPath } from '../shared/paths.js';
import { previewPatch } from './change_preview.js';
import { compactDiff } from './compact_diff.js';
import { loadTextFile, NEW_FILE_FORMAT } from './text_file.js';
import { commitTextChanges } from './text_writes.js';
import { editFolderCheck } from './write_guard.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    input: z.string().min(1).describe('The whole patch, from "*** Begin Patch" to "*** End Patch"'),
  }),
);

const DESCRIPTION = `Add, delete, move and update files with one patch, applied atomically (all files or none):
*** Begin Patch
*** Add File: path/new.ts
+line of the new file
*** Delete File: path/old.ts
*** Update File: path/app.ts
*** Move to: path/renamed.ts   (optional)
@@ function containing the change   (optional context line)
 context line (starts with a space)
-removed line
+added line
*** End of File   (optional: the chunk ends at the end of the file)
*** End Patch
Give about 3 lines of context around each change. Changes are placed in order; a change whose lines match several places is refused unless the changes after it pin one. Untouched lines keep their endings, and a file without a final newline keeps none.`;

interface Loaded {
  states: Map<string, FileState>;
  formats: Map<string, TextFormat>;
  texts: Map<string, string>;
  /** What each file held when read (hash, or null when missing): checked again at commit. */
  expected: Map<string, ExpectedContent>;
}

async function loadPaths(paths: string[], ctx: ToolContext): Promise<Loaded | string> {
  const loaded: Loaded = { states: new Map(), formats: new Map(), texts: new Map(), expected: new Map() };
  for (const p of paths) {
    const absolute = absolutePath(ctx, p);
    const isDir = await stat(absolute).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (isDir) {
      loaded.states.set(p, 'directory');
      continue;
    }
    const file = await loadTextFile(absolute, displayPath(ctx, absolute), ctx.editor);
    if (file.ok) {
      loaded.states.set(p, file.text);
      loaded.texts.set(p, file.text);
      loaded.formats.set(p, file.format);
      loaded.expected.set(p, file.hash);
    } else if (file.missing) {
      loaded.states.set(p, null);
      loaded.expected.set(p, null);
    } else {
      return `${file.error} The patch was not applied.`;
    }
  }
  return loaded;
}

/** A moved file is written in its source's encoding. */
function sourceOf(ops: PatchOp[], path: string): string {
  const move = ops.find((op) => op.kind === 'update' && op.moveTo === path);
  return move ? move.path : path;
}

/** The files a patch names (a move's destination too); none when it does not parse. */
function patchedPaths(patch: string): string[] {
  const parsed = parsePatch(patch);
  return parsed.ok ? patchPaths(parsed.ops) : [];
}

export const applyPatch = buildTool({
  name: 'apply_patch',
  inputSchema,
  description: DESCRIPTION,
  availability: { profiles: ['standard'] },
  kind: 'edit',
  example: {
    files: { 'old.txt': 'gone\n' },
    input: {
      input: '*** Begin Patch\n*** Add File: new.txt\n+hello\n*** Delete File: old.txt\n*** End Patch',
    },
  },
  refusedInStrictPlan: true,
  // lathe's own fact: a patch with a Delete File hunk removes a file.
  destroysExisting: (input) => {
    const parsed = parsePatch(input.input);
    return parsed.ok && parsed.ops.some((op) => op.kind === 'delete');
  },
  permissionSubject: (input) => ({ kind: 'edit', paths: patchedPaths(input.input) }),
  touchedPaths: (input) => patchedPaths(input.input),
  describeChange: (input, ctx) => previewPatch(ctx, input.input),
  validateInput(input) {
    const parsed = parsePatch(input.input);
    return parsed.ok ? undefined : `The patch could not be parsed: ${parsed.error}`;
  },
  userFacingName: () => 'Patch',
  askVerb: 'Apply a patch to',
  // The file lines as written, so a patch that does not parse still shows what it meant to change.
  detail: (input, show) =>
    [...input.input.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)]
      .map((m) => show(m[1].trim()))
      .join(', '),
  async call(input, ctx) {
    const parsed = parsePatch(input.input);
    if (!parsed.ok) return { isError: true, text: `The patch could not be parsed: ${parsed.error}` };
    const loaded = await loadPaths(patchPaths(parsed.ops), ctx);
    if (typeof loaded === 'string') return { isError: true, text: loaded };
    const plan = planPatch(parsed.ops, loaded.states);
    if (!plan.ok)
      return { isError: true, text: `The patch was not applied; no file was changed. ${plan.error}` };

    const writes = [];
    for (const change of plan.changes) {
      const format = loaded.formats.get(sourceOf(parsed.ops, change.path)) ?? NEW_FILE_FORMAT;
      if (change.content !== null) {
        const encodable = checkEncodable(change.content, format);
        if (!encodable.ok)
          return { isError: true, text: `${change.path}: ${encodable.error}. No file was changed.` };
      }
      const path = absolutePath(ctx, change.path);
      writes.push({
        path,
        bytes: change.content === null ? null : encodeText(change.content, format),
        expect: loaded.expected.get(change.path),
        shown: displayPath(ctx, path),
        checkFolder: editFolderCheck(ctx, path),
      });
    }
    try {
      await commitTextChanges(writes, ctx.editor);
    } catch (error) {
      if (error instanceof WriteRefusedError)
        return { isError: true, text: `The patch was not applied: ${error.message}` };
      throw error;
    }
    for (const w of writes) if (w.bytes) ctx.readFiles.saw(w.path, w.bytes);

    const diffs: string[] = [];
    for (const change of plan.changes) {
      if (change.content === null) continue;
      diffs.push(
        await compactDiff(
          change.path,
          loaded.texts.get(sourceOf(parsed.ops, change.path)) ?? '',
          change.content,
        ),
      );
    }
    return {
      text: ['Applied the patch:', ...plan.summary, ...diffs].join('\n'),
      data: { summary: plan.summary },
    };
  },
});
