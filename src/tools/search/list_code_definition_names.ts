import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { readRegularFile, specialFileProblem } from '../../edit/regular_file.js';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { readableFilter } from '../shared/denied_paths.js';
import { gitignoreFilter } from '../shared/gitignore.js';
import { absolutePath, displayPath, missingProblem, pathKind } from '../shared/paths.js';

/** Outlining reads at most this many files of one folder, and skips files larger than this. */
const MAX_FILES = 50;
const MAX_FILE_BYTES = 1024 * 1024;

const inputSchema = lazySchema(() =>
  z.strictObject({
    path: z.string().min(1).describe('A source file, or a folder whose top-level source files to outline'),
  }),
);

async function filesOf(dir: string, workspace: string): Promise<string[]> {
  const keep = await gitignoreFilter(dir, workspace);
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && keep(e.name, false))
    .map((e) => join(dir, e.name))
    .sort();
}

export const listCodeDefinitionNames = buildTool({
  name: 'list_code_definition_names',
  inputSchema,
  description:
    'Outline source code without reading it: the classes, functions, methods, types and other top-level ' +
    'definitions of one file, or of the source files directly in a folder, with line numbers. Supports ' +
    'TypeScript, JavaScript, Python, Go, Rust, Java, C, C++, C#, Ruby and PHP.',
  liteDescription: 'Outline definitions (classes, functions) of a file or folder.',
  availability: { profiles: ['standard', 'lite'] },
  kind: 'read',
  example: { files: { 'a.ts': 'export function f() {}\n' }, input: { path: 'a.ts' } },
  userFacingName: () => 'Outline',
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  permissionSubject: (input) => ({ kind: 'read', paths: [input.path] }),
  validateInput: async (input, ctx) =>
    (await specialFileProblem(absolutePath(ctx, input.path), input.path)) ?? missingProblem(ctx, input.path),
  async call(input, ctx) {
    const { outlineSource, formatOutline } = await import('../../outline/index.js');
    const target = absolutePath(ctx, input.path);
    const isFolder = (await pathKind(target)).kind === 'directory';
    const readable = readableFilter(ctx, 'list_code_definition_names');
    const candidates = (isFolder ? await filesOf(target, ctx.workspace) : [target]).filter(
      (file) => !readable || readable(file),
    );
    const results: Array<{ path: string; outline: NonNullable<Awaited<ReturnType<typeof outlineSource>>> }> =
      [];
    let skipped = 0;
    for (const file of candidates) {
      if (results.length >= MAX_FILES) {
        skipped++;
        continue;
      }
      if (ctx.signal.aborted) break;
      const { size } = await pathKind(file);
      if (size > MAX_FILE_BYTES) {
        skipped++;
        continue;
      }
      // A FIFO or device swapped in since the listing is skipped, never waited on.
      const bytes = await readRegularFile(file).catch(() => undefined);
      if (bytes === undefined) continue;
      const outline = await outlineSource(bytes.toString('utf8'), file);
      if (outline && outline.definitions.length > 0) results.push({ path: displayPath(ctx, file), outline });
    }
    const shown = displayPath(ctx, target);
    if (results.length === 0) {
      return {
        text: isFolder
          ? `No definitions found in the source files directly in ${shown} (list_files shows subfolders to try).`
          : `No definitions found in ${shown} (or its language is not supported).`,
      };
    }
    let text = formatOutline(results);
    if (skipped > 0)
      text += `\n\n[${skipped} files not outlined (over ${MAX_FILES} files or over 1 MB); outline them one by one.]`;
    return { text, data: { files: results.length } };
  },
});
