import { z } from 'zod';
import { formatReport, replaceInFile as replaceEngine } from '../../edit/search_replace/index.js';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { previewFileChange } from './change_preview.js';
import { compactDiff } from './compact_diff.js';
import { loadEditTarget, saveTextFile } from './text_file.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    path: z.string().min(1).describe('File to edit'),
    diff: z.string().min(1).describe('One or more SEARCH/REPLACE blocks'),
  }),
);

const DESCRIPTION = `Edit part of an existing file with SEARCH/REPLACE blocks:
------- SEARCH
exact lines from the file
=======
the lines that replace them
+++++++ REPLACE
Rules: each SEARCH line matches a whole file line or its beginning; leading indentation may be left out (but REPLACE lines are written verbatim, with their own indentation). A block must match exactly one place: include enough lines to be unique. A SEARCH line "....... SKIP" stands for any number of lines between the part before and after it; everything from the first to the last matched line is replaced. Several blocks in one call are matched against the original file, must not overlap, and are applied all together or not at all. The file's line endings and encoding are kept.`;

export const replaceInFile = buildTool({
  name: 'replace_in_file',
  inputSchema,
  description: DESCRIPTION,
  liteDescription:
    'Edit a file with blocks: "------- SEARCH" lines from the file, "=======", new lines, "+++++++ REPLACE". Each SEARCH must match one place.',
  availability: { profiles: ['standard', 'lite'] },
  kind: 'edit',
  example: {
    files: { 'a.ts': 'let a = 1;\n' },
    input: { path: 'a.ts', diff: '------- SEARCH\nlet a = 1;\n=======\nlet a = 2;\n+++++++ REPLACE' },
  },
  refusedInStrictPlan: true,
  permissionSubject: (input) => ({ kind: 'edit', paths: [input.path] }),
  userFacingName: () => 'Edit',
  touchedPaths: (input) => [input.path],
  describeChange: (input, ctx) =>
    previewFileChange(ctx, input.path, (before) => {
      if (before === undefined) return undefined;
      const result = replaceEngine(before, input.diff);
      return result.ok ? result.content : undefined;
    }),
  async call(input, ctx) {
    const { path, shown, loaded } = await loadEditTarget(ctx, input.path);
    if (!loaded.ok) {
      const hint = loaded.missing ? ' To create a file, use write_to_file.' : '';
      return { isError: true, text: `${loaded.error}${hint}` };
    }
    const result = replaceEngine(loaded.text, input.diff);
    if (!result.ok) return { isError: true, text: `${shown} was not changed. ${result.error}` };
    const saved = await saveTextFile(path, shown, result.content, loaded.format, ctx, loaded.hash);
    if (!saved.ok) return { isError: true, text: saved.error };
    const diff = await compactDiff(shown, loaded.text, result.content);
    return {
      text: `Edited ${shown}.\n${formatReport(result.blocks)}\n${diff}`,
      data: { blocks: result.blocks },
    };
  },
});
