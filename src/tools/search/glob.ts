import { statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { readableFilter } from '../shared/denied_paths.js';
import { absolutePath, displayPath, folderProblem, formatCount } from '../shared/paths.js';
import { COMMON_RG_FLAGS, ripgrepError, runRipgrep } from './ripgrep.js';

const MAX_RESULTS = 100;
/** Files stat'ed between yields to the event loop (synchronous stat is several times faster here). */
const STAT_BATCH = 2_000;
/** More matches than this are not sorted by time (the note says so). */
const MAX_SORTED = 200_000;

const inputSchema = lazySchema(() =>
  z.strictObject({
    pattern: z.string().min(1).describe('Glob, e.g. "**/*.ts" or "src/**/test_*.py"'),
    path: z.string().optional().describe('Folder to search in (default: the working folder)'),
  }),
);

async function newestFirst(root: string, files: string[]): Promise<string[]> {
  const times = new Float64Array(files.length);
  for (let i = 0; i < files.length; i++) {
    if (i > 0 && i % STAT_BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
    times[i] = statSync(join(root, files[i]), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  }
  const order = Array.from(files.keys());
  order.sort((a, b) => times[b] - times[a] || (files[a] < files[b] ? -1 : 1));
  return order.map((i) => files[i]);
}

export const glob = buildTool({
  name: 'glob',
  inputSchema,
  description:
    'Find files whose paths match a glob pattern ("**/*.ts", "src/**/*.test.js"), newest first. Honours ' +
    `.gitignore. A pattern without "/" matches file names at any depth. At most ${MAX_RESULTS} results.`,
  availability: { profiles: ['standard'] },
  kind: 'search',
  example: { files: { 'src/a.ts': 'export {};\n' }, input: { pattern: '**/*.ts' } },
  userFacingName: () => 'Glob',
  detail: (input, show) => `${input.pattern}${input.path ? ` in ${show(input.path)}` : ''}`,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  permissionSubject: (input) => ({ kind: 'read', paths: [input.path ?? '.'] }),
  validateInput: (input, ctx) => folderProblem(ctx, input.path),
  async call(input, ctx) {
    const root = absolutePath(ctx, input.path ?? '.');
    const run = await runRipgrep([...COMMON_RG_FLAGS, '--files', '--glob', input.pattern], {
      cwd: root,
      signal: ctx.signal,
      maxLines: MAX_SORTED,
    });
    if (run.exitCode === 2 && run.lines.length === 0) {
      return { isError: true, text: `glob failed: ${ripgrepError(run.stderr)}` };
    }
    const readable = readableFilter(ctx, 'glob');
    const files = run.lines.filter((l) => l !== '' && (!readable || readable(join(root, l))));
    if (files.length === 0) return { text: `No files match ${input.pattern} in ${displayPath(ctx, root)}.` };
    const sorted = run.truncated ? files.sort() : await newestFirst(root, files);
    const shown = sorted.slice(0, MAX_RESULTS).map((f) => displayPath(ctx, join(root, f)));
    let text = shown.join('\n');
    if (files.length > MAX_RESULTS || run.truncated) {
      const total = run.truncated ? `over ${formatCount(files.length)}` : formatCount(files.length);
      text += `\n\n[${total} files match; showing the ${MAX_RESULTS} newest. Use a more specific pattern or path.]`;
    }
    return { text, data: { total: files.length, shown: shown.length } };
  },
});
