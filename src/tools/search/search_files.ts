import { resolve } from 'node:path';
import { z } from 'zod';
import { buildTool, SEARCH_RESULT_CHARS } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { readableFilter } from '../shared/denied_paths.js';
import { absolutePath, displayPath, formatCount, missingProblem } from '../shared/paths.js';
import { COMMON_RG_FLAGS, ripgrepError, runRipgrep } from './ripgrep.js';

const DEFAULT_HEAD_LIMIT = 200;

const inputSchema = lazySchema(() =>
  z.strictObject({
    regex: z.string().min(1).describe('Regular expression (Rust regex syntax) to search for'),
    path: z.string().optional().describe('File or folder to search (default: the working folder)'),
    file_pattern: z
      .string()
      .optional()
      .describe('Glob that file names must match, e.g. "*.ts" or "src/**/*.{js,jsx}"'),
    type: z.string().optional().describe('ripgrep file type, e.g. "ts", "py", "rust"'),
    output_mode: z
      .enum(['content', 'files_with_matches', 'count'])
      .optional()
      .describe('content: matching lines (default); files_with_matches: file paths; count: matches per file'),
    context: z
      .number()
      .int()
      .min(0)
      .max(50)
      .optional()
      .describe('Lines of context around each match (content mode)'),
    case_insensitive: z.boolean().optional(),
    multiline: z.boolean().optional().describe('Let patterns span lines (. matches newlines)'),
    head_limit: z
      .number()
      .int()
      .min(1)
      .max(5000)
      .optional()
      .describe(`Return at most this many lines (default ${DEFAULT_HEAD_LIMIT})`),
    offset: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('Skip this many lines first (to page through results)'),
  }),
);
type Input = z.infer<typeof inputSchema>;

function ripgrepArgs(input: Input, target: string, filtered: boolean): string[] {
  const args = [...COMMON_RG_FLAGS, '--color', 'never', '--max-columns', '400', '--max-columns-preview'];
  const mode = input.output_mode ?? 'content';
  // A NUL after each path lets results be told apart by file whatever the file names hold.
  if (filtered && mode !== 'files_with_matches') args.push('--null');
  if (mode === 'files_with_matches') args.push('--files-with-matches');
  else if (mode === 'count') args.push('--count-matches', '--with-filename');
  else {
    args.push('--line-number', '--with-filename', '--no-heading');
    if (input.context) args.push('--context', String(input.context));
  }
  if (input.case_insensitive) args.push('--ignore-case');
  if (input.multiline) args.push('--multiline', '--multiline-dotall');
  if (input.file_pattern) args.push('--glob', input.file_pattern);
  if (input.type) args.push('--type', input.type);
  args.push('--regexp', input.regex);
  // Searching "." by name would prefix every path with "./".
  if (target !== '.') args.push('--', target);
  return args;
}

/**
 * Leaves out the lines of files the engine denies (`--null` output: `path\0rest`) and restores
 * ripgrep's usual `path:12:text`, `path-12-text` (context) and `path:3` (count) forms.
 */
function deniedLineFilter(
  input: Input,
  workspace: string,
  readable: (absolute: string) => boolean,
): (line: string) => string | undefined {
  const mode = input.output_mode ?? 'content';
  // A `--` between context groups is held until groups on both sides of it are known to be kept.
  let separator = false;
  let shownAny = false;
  return (line) => {
    if (mode === 'files_with_matches') return readable(resolve(workspace, line)) ? line : undefined;
    const nul = line.indexOf('\0');
    if (nul < 0) {
      separator = true;
      return undefined;
    }
    const path = line.slice(0, nul);
    const rest = line.slice(nul + 1);
    const held = separator;
    separator = false;
    if (!readable(resolve(workspace, path))) return undefined;
    const shown = `${path}${mode === 'content' && /^\d+-/.test(rest) ? '-' : ':'}${rest}`;
    const after = held && shownAny;
    shownAny = true;
    return after ? `--\n${shown}` : shown;
  };
}

export const searchFiles = buildTool({
  name: 'search_files',
  inputSchema,
  description:
    'Search file contents with a regular expression (ripgrep). Honours .gitignore. Modes: content (matching ' +
    'lines as path:line:text, with optional context lines), files_with_matches, count. Filter with file_pattern ' +
    '(glob) or type. Page with head_limit and offset. Prefer this to running grep through execute_command.',
  liteDescription: 'Regex search in files (ripgrep). Shows path:line:text.',
  availability: { profiles: ['standard', 'lite'] },
  kind: 'search',
  example: { files: { 'src/a.ts': '// TODO\n' }, input: { regex: 'TODO' } },
  userFacingName: () => 'Search',
  detail: (input, show) => `/${input.regex}/${input.path ? ` in ${show(input.path)}` : ''}`,
  maxResultChars: SEARCH_RESULT_CHARS,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  permissionSubject: (input) => ({ kind: 'read', paths: [input.path ?? '.'] }),
  validateInput: (input, ctx) => missingProblem(ctx, input.path),
  async call(input, ctx) {
    const target = absolutePath(ctx, input.path ?? '.');
    const limit = input.head_limit ?? DEFAULT_HEAD_LIMIT;
    const readable = readableFilter(ctx, 'search_files');
    const run = await runRipgrep(ripgrepArgs(input, displayPath(ctx, target), readable !== undefined), {
      cwd: ctx.workspace,
      signal: ctx.signal,
      maxLines: limit,
      skip: input.offset,
      transform: readable && deniedLineFilter(input, ctx.workspace, readable),
    });
    if (run.exitCode === 2 && run.lines.length === 0) {
      return { isError: true, text: `search_files failed: ${ripgrepError(run.stderr)}` };
    }
    if (run.lines.length === 0) {
      const where = displayPath(ctx, target);
      return {
        text: input.offset
          ? `No results past offset ${input.offset}.`
          : `No matches for /${input.regex}/ in ${where}.`,
      };
    }
    let text = run.lines.join('\n');
    if (run.truncated) {
      const next = (input.offset ?? 0) + run.lines.length;
      text += `\n\n[Showing ${formatCount(run.lines.length)} lines; more results exist. Narrow the search, or call again with offset=${next}.]`;
    }
    return { text, data: { lines: run.lines.length, truncated: run.truncated } };
  },
});
