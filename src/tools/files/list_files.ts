import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { COMMON_RG_FLAGS, ripgrepError, runRipgrep } from '../search/ripgrep.js';
import { readableFilter } from '../shared/denied_paths.js';
import { gitignoreFilter } from '../shared/gitignore.js';
import { absolutePath, displayPath, folderProblem, formatCount } from '../shared/paths.js';

const MAX_ENTRIES = 1_000;

const inputSchema = lazySchema(() =>
  z.strictObject({
    path: z.string().optional().describe('Folder to list (default: the working folder)'),
    recursive: z.boolean().optional().describe('List everything below, not only the top level'),
  }),
);

async function listTopLevel(dir: string, workspace: string): Promise<string[]> {
  const keep = await gitignoreFilter(dir, workspace);
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => keep(e.name, e.isDirectory()))
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Files from ripgrep (sorted by path), with each folder listed once before its contents. */
function withFolders(files: string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    const parts = file.split('/');
    for (let i = 1; i < parts.length; i++) {
      const folder = `${parts.slice(0, i).join('/')}/`;
      if (!seen.has(folder)) {
        seen.add(folder);
        out.push(folder);
      }
    }
    out.push(file);
  }
  return out;
}

export const listFiles = buildTool({
  name: 'list_files',
  inputSchema,
  description:
    'List the files and folders in a folder (folders end with "/"), optionally recursively. Honours .gitignore ' +
    `and never shows .git. At most ${formatCount(MAX_ENTRIES)} entries.`,
  liteDescription: 'List a folder (recursive optional).',
  availability: { profiles: ['standard', 'lite'] },
  kind: 'read',
  example: { files: { 'src/a.ts': 'export {};\n' }, input: { path: 'src' } },
  userFacingName: () => 'List',
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  permissionSubject: (input) => ({ kind: 'read', paths: [input.path ?? '.'] }),
  validateInput: (input, ctx) => folderProblem(ctx, input.path),
  async call(input, ctx) {
    const dir = absolutePath(ctx, input.path ?? '.');
    const shown = displayPath(ctx, dir);
    let entries: string[];
    let more = false;
    if (input.recursive) {
      const run = await runRipgrep([...COMMON_RG_FLAGS, '--files', '--sort', 'path'], {
        cwd: dir,
        signal: ctx.signal,
        maxLines: MAX_ENTRIES,
      });
      if (run.exitCode === 2 && run.lines.length === 0) {
        return { isError: true, text: `list_files failed: ${ripgrepError(run.stderr)}` };
      }
      entries = withFolders(run.lines.filter((l) => l !== ''));
      more = run.truncated || entries.length > MAX_ENTRIES;
    } else {
      entries = await listTopLevel(dir, ctx.workspace);
      more = entries.length > MAX_ENTRIES;
    }
    // Files a deny rule closes are not listed (folders left empty by that go too).
    const readable = readableFilter(ctx, 'list_files');
    if (readable) {
      entries = input.recursive
        ? withFolders(entries.filter((e) => !e.endsWith('/') && readable(join(dir, e))))
        : entries.filter((e) => readable(join(dir, e)));
    }
    entries = entries.slice(0, MAX_ENTRIES);
    if (entries.length === 0) return { text: `${shown} is empty (or everything in it is ignored).` };
    const prefix = shown === '.' ? '' : `${shown.replace(/\/$/, '')}/`;
    let text = entries.map((e) => prefix + e).join('\n');
    if (more) {
      text += `\n\n[Capped at ${formatCount(MAX_ENTRIES)} entries. List a subfolder, or use glob or search_files to narrow.]`;
    }
    return { text, data: { entries: entries.length, capped: more } };
  },
});
