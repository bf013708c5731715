import { join } from 'node:path';
import { z } from 'zod';
import { encodeText } from '../../edit/codec.js';
import { commitFileChanges } from '../../edit/file_transaction.js';
import { realPathOf } from '../../permission/paths.js';
import { buildTool } from '../../tool/build_tool.js';
import { sha256 } from '../files/read_text.js';
import { COMMON_RG_FLAGS, ripgrepError, runRipgrep } from '../search/ripgrep.js';
import { displayPath, formatCount } from '../shared/paths.js';
import { compactDiff } from './compact_diff.js';
import { loadTextFile } from './text_file.js';

/** A replace over more files than this is refused: narrow the glob. */
const MAX_FILES = 2_000;

const inputSchema = z.strictObject({
  glob: z.string().min(1).describe('Files to change, e.g. "src/**/*.ts" (honours .gitignore)'),
  find: z.string().min(1).describe('Text to find (literal unless regex is true)'),
  replace: z.string().describe('Replacement; with regex, $1, $2 … insert capture groups'),
  regex: z.boolean().optional().describe('Treat find as a JavaScript regular expression'),
  preview: z.boolean().optional().describe('Show the change per file without writing anything'),
});
type Input = z.infer<typeof inputSchema>;

function replacer(input: Input): { apply: (text: string) => { text: string; count: number } } | string {
  if (!input.regex) {
    return {
      apply: (text) => {
        const parts = text.split(input.find);
        return { text: parts.join(input.replace), count: parts.length - 1 };
      },
    };
  }
  let pattern: RegExp;
  try {
    pattern = new RegExp(input.find, 'gm');
  } catch (error) {
    return `find is not a valid regular expression: ${(error as Error).message}`;
  }
  return {
    apply: (text) => {
      let count = 0;
      const out = text.replace(pattern, (...args) => {
        count++;
        return input.replace.replace(/\$(\d+|&)/g, (_m, ref: string) =>
          ref === '&' ? String(args[0]) : String(args[Number(ref)] ?? ''),
        );
      });
      return { text: out, count };
    },
  };
}

export const replaceText = buildTool({
  name: 'replace_text',
  inputSchema,
  description:
    'Replace text in every file matching a glob: literal by default, or a regular expression with regex: true. ' +
    'With preview: true, shows the diff of each file without writing. All matching files are changed together ' +
    'or not at all.',
  availability: { profiles: ['standard'] },
  isReadOnly: (input) => input.preview === true,
  isConcurrencySafe: (input) => input.preview === true,
  dynamic: { readOnly: true, concurrencySafe: true },
  permissionSubject: (input) => ({ kind: input.preview ? 'read' : 'edit', paths: ['.'] }),
  validateInput(input) {
    const r = replacer(input);
    return typeof r === 'string' ? r : undefined;
  },
  async call(input, ctx) {
    const r = replacer(input);
    if (typeof r === 'string') return { isError: true, text: r };
    const run = await runRipgrep([...COMMON_RG_FLAGS, '--files', '--glob', input.glob, '--sort', 'path'], {
      cwd: ctx.cwd,
      signal: ctx.signal,
      maxLines: MAX_FILES,
    });
    if (run.exitCode === 2 && run.lines.length === 0)
      return { isError: true, text: `replace_text failed: ${ripgrepError(run.stderr)}` };
    if (run.truncated)
      return {
        isError: true,
        text: `Over ${formatCount(MAX_FILES)} files match ${input.glob}; use a narrower glob.`,
      };
    const changes = [];
    const report: string[] = [];
    let total = 0;
    for (const file of run.lines.filter((l) => l !== '')) {
      const absolute = join(ctx.cwd, file);
      const shown = displayPath(ctx, absolute);
      const loaded = await loadTextFile(absolute, shown);
      if (!loaded.ok) continue;
      const { text, count } = r.apply(loaded.text);
      if (count === 0 || text === loaded.text) continue;
      total += count;
      changes.push({ path: absolute, bytes: encodeText(text, loaded.format) });
      report.push(`${shown}: ${count} replacement${count === 1 ? '' : 's'}`);
      if (input.preview) report.push(await compactDiff(shown, loaded.text, text));
    }
    if (changes.length === 0)
      return { text: `No file matching ${input.glob} contains ${JSON.stringify(input.find)}.` };
    const summary = `${formatCount(total)} replacements in ${changes.length} files`;
    if (input.preview)
      return { text: `Preview (nothing written): ${summary}.\n${report.join('\n')}`, data: { total } };
    await commitFileChanges(changes);
    for (const c of changes) ctx.readFiles.set(realPathOf(c.path), sha256(c.bytes));
    return { text: `Replaced: ${summary}.\n${report.join('\n')}`, data: { total, files: changes.length } };
  },
});
