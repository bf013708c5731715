import { join } from 'node:path';
import { z } from 'zod';
import { buildTool, SEARCH_RESULT_CHARS } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { readableFilter } from '../shared/denied_paths.js';
import { gitFolderProblem } from '../shared/git_folder.js';
import { absolutePath, displayPath, formatCount, missingProblem } from '../shared/paths.js';
import { insideGit } from './file_listing.js';
import { INCLUDE_IGNORED_HELP, ignoredFolderNote } from './ignored_note.js';
import { type PathPattern, pathPattern } from './path_pattern.js';
import { resultLineFilter } from './result_lines.js';
import { COMMON_RG_FLAGS, ripgrepError, runRipgrep } from './ripgrep.js';
import { type SearchScope, searchScope } from './search_scope.js';

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
    include_ignored: z.boolean().optional().describe(INCLUDE_IGNORED_HELP),
  }),
);
type Input = z.infer<typeof inputSchema>;

function ripgrepArgs(input: Input, scope: SearchScope, pattern: PathPattern | undefined): string[] {
  const args = [...COMMON_RG_FLAGS, '--color', 'never', '--max-columns', '400', '--max-columns-preview'];
  if (scope.noIgnore) args.push('--no-ignore');
  const mode = input.output_mode ?? 'content';
  // A NUL after each path lets results be told apart by file whatever the file names hold.
  if (mode !== 'files_with_matches') args.push('--null');
  if (mode === 'files_with_matches') args.push('--files-with-matches');
  else if (mode === 'count') args.push('--count-matches', '--with-filename');
  else {
    args.push('--line-number', '--with-filename', '--no-heading');
    if (input.context) args.push('--context', String(input.context));
  }
  if (input.case_insensitive) args.push('--ignore-case');
  if (input.multiline) args.push('--multiline', '--multiline-dotall');
  if (input.type) args.push('--type', input.type);
  // A file-name glob lets ripgrep skip the files the pattern cannot match (the pattern still decides).
  else if (pattern?.nameGlob) args.push('--type-add', `pattern:${pattern.nameGlob}`, '--type', 'pattern');
  args.push('--regexp', input.regex);
  if (scope.file !== undefined) args.push('--', scope.file);
  return args;
}

/** Whether a result's file (relative to the scope's root) is shown: never .git, the pattern, deny rules. */
function shownFile(
  root: string,
  pattern: PathPattern | undefined,
  readable: ((absolute: string) => boolean) | undefined,
): (path: string) => boolean {
  return (path) =>
    !insideGit(path) && (!pattern || pattern.matches(path)) && (!readable || readable(join(root, path)));
}

export const searchFiles = buildTool({
  name: 'search_files',
  inputSchema,
  description:
    'Search file contents with a regular expression (ripgrep). Skips git-ignored files and .git. Modes: content (matching ' +
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
  validateInput: async (input, ctx) =>
    gitFolderProblem(ctx, input.path, 'search_files') ?? (await missingProblem(ctx, input.path)),
  async call(input, ctx) {
    const target = absolutePath(ctx, input.path ?? '.');
    const where = displayPath(ctx, target);
    const limit = input.head_limit ?? DEFAULT_HEAD_LIMIT;
    const scope = await searchScope(target, input.include_ignored === true, ctx.signal);
    if (scope.allIgnored) {
      return { text: `No matches for /${input.regex}/ in ${where}.${await ignoredFolderNote(target, ctx)}` };
    }
    const pattern = input.file_pattern === undefined ? undefined : pathPattern(input.file_pattern);
    const shownRoot = displayPath(ctx, scope.root);
    const prefix = shownRoot === '.' ? '' : `${shownRoot}/`;
    const keep = shownFile(scope.root, pattern, readableFilter(ctx, 'search_files'));
    const run = await runRipgrep(ripgrepArgs(input, scope, pattern), {
      cwd: scope.root,
      signal: ctx.signal,
      maxLines: limit,
      skip: input.offset,
      transform: resultLineFilter(input.output_mode ?? 'content', keep, (path) => prefix + path),
      ignoreLines: scope.ignoreLines,
    });
    // ripgrep calls a walk that every file was left out of an error; here it is no match.
    const nothingSearched = run.stderr.includes('No files were searched');
    if (run.exitCode === 2 && run.lines.length === 0 && !nothingSearched) {
      return { isError: true, text: `search_files failed: ${ripgrepError(run.stderr)}` };
    }
    if (run.lines.length === 0) {
      if (input.offset) return { text: `No results past offset ${input.offset}.` };
      return { text: `No matches for /${input.regex}/ in ${where}.` };
    }
    let text = run.lines.join('\n');
    if (run.truncated) {
      const next = (input.offset ?? 0) + run.lines.length;
      text += `\n\n[Showing ${formatCount(run.lines.length)} lines; more results exist. Narrow the search, or call again with offset=${next}.]`;
    }
    return { text, data: { lines: run.lines.length, truncated: run.truncated } };
  },
});
