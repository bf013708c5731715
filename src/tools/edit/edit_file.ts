import { z } from 'zod';
import { exactReplace } from '../../edit/exact_replace.js';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { previewFileChange } from './change_preview.js';
import { compactDiff } from './compact_diff.js';
import { loadEditTarget, NEW_FILE_FORMAT, saveTextFile } from './text_file.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    path: z.string().min(1).describe('File to edit'),
    old_string: z.string().describe('The exact text to replace (empty only to create a new file)'),
    new_string: z.string().describe('The text to put in its place'),
    replace_all: z.boolean().optional().describe('Replace every occurrence instead of exactly one'),
  }),
);

export const editFile = buildTool({
  name: 'edit_file',
  inputSchema,
  description:
    'Replace an exact string in a file. old_string must occur exactly once (include surrounding lines to ' +
    'make it unique) unless replace_all is true. Match indentation exactly. The file must have been read with ' +
    'read_file first in this session, and not changed since. An empty old_string creates a new file.',
  availability: { profiles: ['standard', 'simple'] },
  kind: 'edit',
  example: { files: { 'a.ts': 'let a = 1;\n' }, input: { path: 'a.ts', old_string: '1', new_string: '2' } },
  refusedInStrictPlan: true,
  permissionSubject: (input) => ({ kind: 'edit', paths: [input.path] }),
  userFacingName: () => 'Edit',
  touchedPaths: (input) => [input.path],
  describeChange: (input, ctx) =>
    previewFileChange(ctx, input.path, (before) => {
      const result = exactReplace(
        before ?? '',
        input.old_string,
        input.new_string,
        input.replace_all ?? false,
      );
      // A missing file is created with new_string when old_string is empty.
      return result.ok ? result.content : before === undefined ? input.new_string : undefined;
    }),
  async call(input, ctx) {
    const { path, shown, loaded } = await loadEditTarget(ctx, input.path);
    if (!loaded.ok) {
      if (loaded.missing && input.old_string === '') {
        const saved = await saveTextFile(path, shown, input.new_string, NEW_FILE_FORMAT, ctx, null);
        return saved.ok ? { text: `Created ${shown}.` } : { isError: true, text: saved.error };
      }
      return { isError: true, text: loaded.error };
    }
    // Judged by content hash: a touched but unchanged file is no reason to refuse.
    const seen = ctx.readFiles.check(path, loaded.hash);
    if (seen === 'unread') {
      return {
        isError: true,
        text: `${shown} has not been read in this session. Read it with read_file first, then edit.`,
      };
    }
    if (seen === 'changed') {
      return {
        isError: true,
        text: `${shown} changed ${ctx.editor?.readTextFile ? '(on disk or in the editor)' : 'on disk'} since it was read. Read it again with read_file, then edit.`,
      };
    }
    const result = exactReplace(loaded.text, input.old_string, input.new_string, input.replace_all ?? false);
    if (!result.ok) return { isError: true, text: `${shown} was not changed. ${result.error}` };
    const saved = await saveTextFile(path, shown, result.content, loaded.format, ctx, loaded.hash);
    if (!saved.ok) return { isError: true, text: saved.error };
    const diff = await compactDiff(shown, loaded.text, result.content);
    const count = result.count === 1 ? '1 replacement' : `${result.count} replacements`;
    return { text: `Edited ${shown} (${count}).\n${diff}`, data: { replacements: result.count } };
  },
});
