import { join } from 'node:path';
import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { readableFilter } from '../shared/denied_paths.js';
import { gitFolderProblem } from '../shared/git_folder.js';
import { absolutePath, displayPath, folderProblem, formatCount } from '../shared/paths.js';
import { listFiles } from './file_listing.js';
import { INCLUDE_IGNORED_HELP, ignoredFolderNote } from './ignored_note.js';
import { NewestFiles } from './newest_files.js';
import { pathPattern } from './path_pattern.js';

const MAX_RESULTS = 100;
/** Up to this many matches are ordered by time (a stat each); more are shown in path order. */
const MAX_SORTED = 10_000;

const inputSchema = lazySchema(() =>
  z.strictObject({
    pattern: z.string().min(1).describe('Glob, e.g. "**/*.ts" or "src/**/test_*.py"'),
    path: z.string().optional().describe('Folder to search in (default: the working folder)'),
    include_ignored: z.boolean().optional().describe(INCLUDE_IGNORED_HELP),
  }),
);

export const glob = buildTool({
  name: 'glob',
  inputSchema,
  description:
    'Find files whose paths match a glob pattern ("**/*.ts", "src/**/*.test.js"), newest first. Skips ' +
    `git-ignored files and .git. A pattern without "/" matches file names at any depth. At most ${MAX_RESULTS} results.`,
  availability: { profiles: ['standard'] },
  kind: 'search',
  example: { files: { 'src/a.ts': 'export {};\n' }, input: { pattern: '**/*.ts' } },
  userFacingName: () => 'Glob',
  detail: (input, show) => `${input.pattern}${input.path ? ` in ${show(input.path)}` : ''}`,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  permissionSubject: (input) => ({ kind: 'read', paths: [input.path ?? '.'] }),
  validateInput: async (input, ctx) =>
    gitFolderProblem(ctx, input.path, 'glob') ?? (await folderProblem(ctx, input.path)),
  async call(input, ctx) {
    const root = absolutePath(ctx, input.path ?? '.');
    const pattern = pathPattern(input.pattern);
    const readable = readableFilter(ctx, 'glob');
    const picked = new NewestFiles(root, MAX_RESULTS, MAX_SORTED);
    const includeIgnored = input.include_ignored === true;
    const listing = await listFiles(root, { includeIgnored, pattern, signal: ctx.signal }, (path) => {
      if (pattern.matches(path) && (!readable || readable(join(root, path)))) picked.add(path);
    });
    if (!listing.ok) return { isError: true, text: `glob failed: ${listing.error}` };
    const { files, total, order } = picked.pick();
    if (files.length === 0) {
      const note = includeIgnored ? '' : await ignoredFolderNote(root, ctx);
      return { text: `No files match ${input.pattern} in ${displayPath(ctx, root)}.${note}` };
    }
    let text = files.map((f) => displayPath(ctx, join(root, f))).join('\n');
    if (total > files.length) {
      const which =
        order === 'time'
          ? `the ${files.length} newest`
          : `the first ${files.length} by path (too many to order by time)`;
      text += `\n\n[${formatCount(total)} files match; showing ${which}. Use a more specific pattern or path.]`;
    }
    return { text, data: { total, shown: files.length } };
  },
});
