import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import type { ToolContext } from '../../tool/types.js';
import { isListedFile, listFiles as listFolderFiles } from '../search/file_listing.js';
import { gitIgnoredNames } from '../search/git_ignored.js';
import { INCLUDE_IGNORED_HELP, ignoredFolderNote } from '../search/ignored_note.js';
import { readableFilter } from '../shared/denied_paths.js';
import { gitFolderProblem } from '../shared/git_folder.js';
import { gitignoreFilter } from '../shared/gitignore.js';
import { FirstPaths } from '../shared/path_order.js';
import { absolutePath, displayPath, folderProblem, formatCount } from '../shared/paths.js';

const MAX_ENTRIES = 1_000;

const inputSchema = lazySchema(() =>
  z.strictObject({
    path: z.string().optional().describe('Folder to list (default: the working folder)'),
    recursive: z.boolean().optional().describe('List everything below, not only the top level'),
    include_ignored: z.boolean().optional().describe(INCLUDE_IGNORED_HELP),
  }),
);

/** Which entries of a folder its ignore rules keep: git's answer in a work tree, else the .gitignore files. */
async function keptEntries(dir: string, entries: Dirent[], ctx: ToolContext): Promise<Dirent[]> {
  const ignored = await gitIgnoredNames(
    dir,
    entries.map((e) => e.name),
    ctx.signal,
  );
  if (ignored) return entries.filter((e) => !ignored.has(e.name));
  const keep = await gitignoreFilter(dir, ctx.workspace);
  return entries.filter((e) => keep(e.name, e.isDirectory()));
}

async function listTopLevel(dir: string, includeIgnored: boolean, ctx: ToolContext): Promise<string[]> {
  const entries = (await readdir(dir, { withFileTypes: true })).filter((e) => e.name !== '.git');
  const kept = includeIgnored ? entries : await keptEntries(dir, entries, ctx);
  return kept
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Files (sorted by path), with each folder listed once before its contents. */
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

/** The first files below `dir` by path (deny rules applied), and whether there were more. */
async function listRecursive(
  dir: string,
  includeIgnored: boolean,
  ctx: ToolContext,
): Promise<{ ok: true; files: string[]; more: boolean } | { ok: false; error: string }> {
  const readable = readableFilter(ctx, 'list_files');
  const first = new FirstPaths(MAX_ENTRIES);
  const listing = await listFolderFiles(dir, { includeIgnored, signal: ctx.signal }, (path) => {
    if (!readable || readable(join(dir, path))) first.add(path);
  });
  if (!listing.ok) return listing;
  // git lists a tracked file the disk no longer has: only files that are there are shown.
  const files = first.paths().filter((path) => isListedFile(dir, path));
  return { ok: true, files, more: first.count > MAX_ENTRIES };
}

export const listFiles = buildTool({
  name: 'list_files',
  inputSchema,
  description:
    'List the files and folders in a folder (folders end with "/"), optionally recursively. Skips git-ignored ' +
    `files and .git. At most ${formatCount(MAX_ENTRIES)} entries.`,
  liteDescription: 'List a folder (recursive optional).',
  availability: { profiles: ['standard', 'lite'] },
  kind: 'read',
  example: { files: { 'src/a.ts': 'export {};\n' }, input: { path: 'src' } },
  userFacingName: () => 'List',
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  permissionSubject: (input) => ({ kind: 'read', paths: [input.path ?? '.'] }),
  validateInput: async (input, ctx) =>
    gitFolderProblem(ctx, input.path, 'list_files') ?? (await folderProblem(ctx, input.path)),
  async call(input, ctx) {
    const dir = absolutePath(ctx, input.path ?? '.');
    const shown = displayPath(ctx, dir);
    const includeIgnored = input.include_ignored === true;
    let entries: string[];
    let more = false;
    if (input.recursive) {
      const listed = await listRecursive(dir, includeIgnored, ctx);
      if (!listed.ok) return { isError: true, text: `list_files failed: ${listed.error}` };
      entries = withFolders(listed.files);
      more = listed.more || entries.length > MAX_ENTRIES;
    } else {
      entries = await listTopLevel(dir, includeIgnored, ctx);
      // Entries a deny rule closes are not listed.
      const readable = readableFilter(ctx, 'list_files');
      if (readable) entries = entries.filter((e) => readable(join(dir, e)));
      more = entries.length > MAX_ENTRIES;
    }
    entries = entries.slice(0, MAX_ENTRIES);
    if (entries.length === 0) {
      const note = includeIgnored ? '' : await ignoredFolderNote(dir, ctx);
      return { text: `Nothing to list in ${shown}.${note}` };
    }
    const prefix = shown === '.' ? '' : `${shown.replace(/\/$/, '')}/`;
    let text = entries.map((e) => prefix + e).join('\n');
    if (more) {
      text += `\n\n[Capped at ${formatCount(MAX_ENTRIES)} entries. List a subfolder, or use glob or search_files to narrow.]`;
    }
    return { text, data: { entries: entries.length, capped: more } };
  },
});
