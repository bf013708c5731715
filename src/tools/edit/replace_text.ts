import { join } from 'node:path';
import { z } from 'zod';
import { WriteRefusedError } from '../../edit/atomic_write.js';
import type { FileChange } from '../../edit/file_transaction.js';
import { TimedRegex } from '../../edit/timed_regex.js';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import type { PermissionCheck, ToolContext } from '../../tool/types.js';
import { isListedFile, listFiles } from '../search/file_listing.js';
import { pathPattern } from '../search/path_pattern.js';
import { FirstPaths } from '../shared/path_order.js';
import { displayPath, formatCount } from '../shared/paths.js';
import { planFileReplace } from './replace_text_file.js';
import { commitTextChanges } from './text_writes.js';

/** A replace over more files than this is refused: narrow the glob. */
const MAX_FILES = 2_000;

const inputSchema = lazySchema(() =>
  z.strictObject({
    glob: z.string().min(1).describe('Files to change, e.g. "src/**/*.ts" (honours .gitignore)'),
    find: z.string().min(1).describe('Text to find (literal unless regex is true)'),
    replace: z.string().describe('Replacement; with regex, $1, $2 … insert capture groups'),
    regex: z.boolean().optional().describe('Treat find as a JavaScript regular expression'),
    preview: z.boolean().optional().describe('Show the change per file without writing anything'),
  }),
);
type Input = z.infer<typeof inputSchema>;

type Matches = { ok: true; files: string[] } | { ok: false; error: string };

/**
 * The files the glob matches, relative to the working folder, in path order: those glob would
 * show (never .git, nothing git ignores).
 */
async function listMatches(input: Input, ctx: ToolContext): Promise<Matches> {
  const pattern = pathPattern(input.glob);
  const first = new FirstPaths(MAX_FILES);
  const listing = await listFiles(ctx.cwd, { includeIgnored: false, pattern, signal: ctx.signal }, (path) => {
    if (pattern.matches(path)) first.add(path);
  });
  if (!listing.ok) return { ok: false, error: `replace_text failed: ${listing.error}` };
  if (first.count > MAX_FILES)
    return {
      ok: false,
      error: `Over ${formatCount(MAX_FILES)} files match ${input.glob}; use a narrower glob.`,
    };
  return { ok: true, files: first.paths().filter((path) => isListedFile(ctx.cwd, path)) };
}

/**
 * Every file the glob matches is put to the permission engine as this call's paths, as if named
 * one by one: deny rules, protected paths (.agents/, .git/ …) and outside-the-workspace all
 * apply to each file, whatever the glob looks like. The files go to the call with the verdict,
 * so it changes exactly the files that were checked, not a fresh listing.
 */
async function decideForMatches(input: Input, ctx: ToolContext): Promise<PermissionCheck> {
  const matches = await listMatches(input, ctx);
  if (!matches.ok) return { behavior: 'allow' };
  const preview = input.preview === true;
  const decision = ctx.permissions.decide({
    tool: 'replace_text',
    readOnly: preview,
    subject: { kind: preview ? 'read' : 'edit', paths: matches.files.map((file) => join(ctx.cwd, file)) },
    strictPlanRefused: false,
  });
  return { ...decision, checkedFiles: matches.files };
}

export const replaceText = buildTool({
  name: 'replace_text',
  inputSchema,
  description:
    'Replace text in every file matching a glob: literal by default, or a regular expression with regex: true. ' +
    'With preview: true, shows the diff of each file without writing. All matching files are changed together ' +
    'or not at all. Files over 8 MB are streamed: there a regex matches within one line.',
  availability: { profiles: ['standard'] },
  kind: 'edit',
  example: { files: { 'src/a.ts': 'let a = 1;\n' }, input: { glob: 'src/**/*.ts', find: 'a', replace: 'b' } },
  userFacingName: () => 'Replace',
  detail: (input) => `${input.find} → ${input.replace} in ${input.glob}`,
  // The files are those the glob matches when the call runs: the glob stands for them.
  touchedPaths: (input) => (input.preview ? [] : [input.glob]),
  // lathe's own fact: a preview writes nothing, so Plan mode lets it run.
  planModeAllowed: (input) => input.preview === true,
  permissionSubject: (input) => ({ kind: input.preview ? 'read' : 'edit', paths: ['.'] }),
  checkPermissions: decideForMatches,
  validateInput(input) {
    const problem = input.regex ? TimedRegex.problem(input.find, 'gm') : undefined;
    return problem === undefined ? undefined : `find is not a valid regular expression: ${problem}`;
  },
  async call(input, ctx) {
    const checked = ctx.checkedFiles;
    const matches: Matches = checked ? { ok: true, files: [...checked] } : await listMatches(input, ctx);
    if (!matches.ok) return { isError: true, text: matches.error };
    const regex = input.regex ? new TimedRegex(input.find, 'gm') : undefined;
    const changes: FileChange[] = [];
    const report: string[] = [];
    let total = 0;
    try {
      for (const file of matches.files) {
        if (ctx.signal.aborted)
          return { isError: true, text: 'replace_text was cancelled; no file was changed.' };
        const absolute = join(ctx.cwd, file);
        const shown = displayPath(ctx, absolute);
        const planned = await planFileReplace(absolute, shown, input, regex, ctx);
        if (!planned.ok) return { isError: true, text: `${planned.error} No file was changed.` };
        if (planned.change === undefined) continue;
        total += planned.count;
        changes.push(planned.change);
        report.push(`${shown}: ${planned.count} replacement${planned.count === 1 ? '' : 's'}`);
        if (input.preview && planned.diff) report.push(planned.diff);
      }
    } finally {
      await regex?.close();
    }
    if (changes.length === 0)
      return { text: `No file matching ${input.glob} contains ${JSON.stringify(input.find)}.` };
    const summary = `${formatCount(total)} replacements in ${changes.length} files`;
    if (input.preview)
      return { text: `Preview (nothing written): ${summary}.\n${report.join('\n')}`, data: { total } };
    try {
      await commitTextChanges(changes, ctx.editor);
    } catch (error) {
      if (error instanceof WriteRefusedError) return { isError: true, text: error.message };
      throw error;
    }
    for (const c of changes) {
      if (c.bytes instanceof Uint8Array) ctx.readFiles.saw(c.path, c.bytes);
    }
    return { text: `Replaced: ${summary}.\n${report.join('\n')}`, data: { total, files: changes.length } };
  },
});
