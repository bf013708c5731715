import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { previewFileChange } from './change_preview.js';
import { compactDiff } from './compact_diff.js';
import { expectedContent, loadEditTarget, NEW_FILE_FORMAT, saveTextFile, withEol } from './text_file.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    path: z.string().min(1).describe('File to create or overwrite'),
    content: z.string().describe('The complete new content of the file'),
  }),
);

export const writeToFile = buildTool({
  name: 'write_to_file',
  inputSchema,
  description:
    'Create a file, or overwrite one with complete new content. Missing folders are created. An existing ' +
    'file keeps its encoding and line endings. For changes to part of a file, prefer replace_in_file or edit_file.',
  liteDescription: 'Create or overwrite a file with the full content.',
  availability: { profiles: ['standard', 'lite'] },
  kind: 'edit',
  example: { input: { path: 'notes.md', content: 'hello\n' } },
  refusedInStrictPlan: true,
  // Not destructive by the contract; lathe's own fact: an overwrite loses what the file held.
  destroysExisting: true,
  permissionSubject: (input) => ({ kind: 'edit', paths: [input.path] }),
  userFacingName: () => 'Write',
  touchedPaths: (input) => [input.path],
  describeChange: (input, ctx) => previewFileChange(ctx, input.path, () => input.content),
  async call(input, ctx) {
    const { path, shown, loaded: existing } = await loadEditTarget(ctx, input.path);
    if (!existing.ok && !existing.missing)
      return { isError: true, text: `${existing.error} Nothing was written.` };
    const format = existing.ok ? existing.format : NEW_FILE_FORMAT;
    const content = withEol(input.content, format.eol);
    const saved = await saveTextFile(path, shown, content, format, ctx, expectedContent(existing));
    if (!saved.ok) return { isError: true, text: saved.error };
    const lines = content === '' ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
    if (!existing.ok) return { text: `Created ${shown} (${lines} lines).`, data: { created: true, lines } };
    const diff = await compactDiff(shown, existing.text, content);
    return {
      text: diff
        ? `Overwrote ${shown} (${lines} lines).\n${diff}`
        : `${shown} already had this content; nothing changed.`,
      data: { created: false, lines },
    };
  },
});
