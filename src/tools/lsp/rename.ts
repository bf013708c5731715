import type { TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { z } from 'zod';
import { WriteRefusedError } from '../../edit/atomic_write.js';
import type { FileChange } from '../../edit/file_transaction.js';
import { shownName } from '../../lsp/language_servers.js';
import { identifierProblem } from '../../lsp/languages.js';
import { formatPlaces, type Place } from '../../lsp/locations.js';
import { renameLeftovers } from '../../lsp/rename_leftovers.js';
import { applyTextEdits, editsByFile, encodeEdited, isReadOnlyFile } from '../../lsp/workspace_edit.js';
import { isInside, realPathOf } from '../../permission/paths.js';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import type { PermissionCheck, ToolContext } from '../../tool/types.js';
import { compactDiff } from '../edit/compact_diff.js';
import { loadTextFile } from '../edit/text_file.js';
import { commitTextChanges } from '../edit/text_writes.js';
import { editFolderCheck } from '../edit/write_guard.js';
import {
  ADDRESS_HELP,
  addressFields,
  openAddressed,
  placeName,
  positionParams,
  validateAddress,
} from './address_input.js';
import { openFilesWithWord } from './word_files_opened.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    ...addressFields,
    new_name: z.string().min(1).describe('The new name'),
    preview: z.boolean().optional().describe('Show the change to each file without writing anything'),
    accept_leftovers: z
      .boolean()
      .optional()
      .describe(
        'Rename although whole-word uses of the old name that the server does not change remain (a rename that leaves any is refused and lists them; strings and comments count too)',
      ),
  }),
);
type Input = z.infer<typeof inputSchema>;

/** The server's rename as files and their edits, or why there is none. */
type Plan =
  | {
      ok: true;
      files: Map<string, TextEdit[]>;
      word: string;
      where: string;
      /** Whole-word uses of the old name the edit leaves (accepted with accept_leftovers). */
      leftovers: Place[];
    }
  | { ok: false; error: string };

async function planRename(input: Input, ctx: ToolContext): Promise<Plan> {
  const found = await openAddressed(ctx, input);
  if (!found.ok) return found;
  const { at } = found;
  const language = ctx.languageServers?.languageOf(at.file) ?? at.server.language;
  const invalid = identifierProblem(language, input.new_name);
  if (invalid) return { ok: false, error: `${invalid}; nothing was renamed.` };
  // All or nothing: the server renames only in files it has been told of.
  const holding = await openFilesWithWord(at.server, at.word, ctx, 'rename');
  let edit: WorkspaceEdit | null;
  try {
    edit = await at.server.request<WorkspaceEdit | null>(
      'textDocument/rename',
      { ...positionParams(at), newName: input.new_name },
      ctx.signal,
    );
  } catch (error) {
    return {
      ok: false,
      error: `The ${at.server.name} server refused the rename: ${(error as Error).message}`,
    };
  }
  const byFile = editsByFile(edit);
  if (!byFile.ok) return { ok: false, error: `${byFile.error}. Nothing was renamed.` };
  if (byFile.files.size === 0)
    return { ok: false, error: `Nothing to rename at ${placeName(at)} (${at.word || 'no symbol there'}).` };
  const leftovers = await leftoversOf(holding, byFile.files, at.word);
  if (leftovers.length > 0 && !input.accept_leftovers) {
    const list = await formatPlaces(leftovers, (f) => shownName(f, ctx.workspace));
    const count = leftovers.length === 1 ? '1 whole-word use' : `${leftovers.length} whole-word uses`;
    return {
      ok: false,
      error:
        `The ${at.server.name} server's rename of ${at.word} would leave ${count} of the old name unchanged; nothing was renamed.\n${list}\n` +
        'Change those places yourself, or, if they are meant to stay (strings, comments, another symbol of that name), call rename again with accept_leftovers: true.',
    };
  }
  return { ok: true, files: byFile.files, word: at.word, where: placeName(at), leftovers };
}

/** The places in the files holding the word that the server's edits leave with the old name. */
async function leftoversOf(
  holding: readonly string[],
  edits: ReadonlyMap<string, TextEdit[]>,
  word: string,
): Promise<Place[]> {
  const places: Place[] = [];
  for (const file of new Set([...holding, ...edits.keys()])) {
    const loaded = await loadTextFile(file, file);
    if (!loaded.ok) continue;
    for (const start of renameLeftovers(loaded.text, word, edits.get(file) ?? []))
      places.push({ file, range: { start, end: start } });
  }
  return places;
}

/** Files of the edit that lie outside the workspace (by their real paths): lathe refuses those. */
function outsideWorkspace(files: Iterable<string>, workspace: string): string[] {
  const real = realPathOf(workspace);
  return [...files].filter((file) => !isInside(realPathOf(file), real));
}

/** Every file of the rename goes to the permission engine as an edit (a preview as a read). */
async function decideForRename(input: Input, ctx: ToolContext): Promise<PermissionCheck> {
  const plan = await planRename(input, ctx).catch(() => undefined);
  if (!plan?.ok) return { behavior: 'allow' };
  const files = [...plan.files.keys()];
  const preview = input.preview === true;
  const decision = ctx.permissions.decide({
    tool: 'rename',
    readOnly: preview,
    subject: { kind: preview ? 'read' : 'edit', paths: files },
    strictPlanRefused: false,
  });
  return { ...decision, checkedFiles: files };
}

export const rename = buildTool({
  name: 'rename',
  inputSchema,
  description:
    `Rename a symbol everywhere it is used, through the language server of the file's language. ${ADDRESS_HELP} ` +
    'All files change together or none do (encodings and line endings kept). With preview: true, shows the ' +
    "change to each file without writing. An invalid name is refused with the server's reason.",
  liteDescription: 'Rename a symbol across files via the language server.',
  availability: { profiles: ['standard'], requires: ['languageServer'] },
  kind: 'edit',
  example: {
    files: { 'a.ts': 'export const answer = 42;\nconsole.log(answer);\n' },
    input: { path: 'a.ts', symbol: 'answer', new_name: 'result' },
  },
  userFacingName: () => 'Rename',
  detail: (input, show) =>
    `${input.symbol ?? input.anchor ?? `${input.line}:${input.column}`} → ${input.new_name} in ${show(input.path)}`,
  // The server decides which files change: any file of the workspace may.
  touchedPaths: (input) => (input.preview ? [] : [input.path, '**']),
  // lathe's own fact: a preview writes nothing, so Plan mode lets it run.
  planModeAllowed: (input) => input.preview === true,
  permissionSubject: (input) => ({ kind: input.preview ? 'read' : 'edit', paths: [input.path] }),
  checkPermissions: decideForRename,
  validateInput: (input, ctx) => validateAddress(input, ctx),
  async call(input, ctx) {
    const show = (file: string) => shownName(file, ctx.workspace);
    const plan = await planRename(input, ctx);
    if (!plan.ok) return { isError: true, text: plan.error };
    const outside = outsideWorkspace(plan.files.keys(), ctx.workspace);
    if (outside.length > 0)
      return {
        isError: true,
        text: `The rename would change files outside the workspace (${outside.join(', ')}); nothing was renamed.`,
      };
    const checked = ctx.checkedFiles && new Set(ctx.checkedFiles);
    const unchecked = checked ? [...plan.files.keys()].filter((f) => !checked.has(f)) : [];
    if (unchecked.length > 0)
      return {
        isError: true,
        text: `The rename now also changes ${unchecked.map(show).join(', ')}, which was not approved; nothing was renamed. Try again.`,
      };
    const changes: FileChange[] = [];
    const report: string[] = [];
    let total = 0;
    for (const [file, edits] of [...plan.files].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const shown = show(file);
      const loaded = await loadTextFile(file, shown);
      if (!loaded.ok) return { isError: true, text: `${loaded.error} Nothing was renamed.` };
      if (!input.preview && (await isReadOnlyFile(file)))
        return { isError: true, text: `${shown} is read-only; nothing was renamed. Make it writable first.` };
      const applied = applyTextEdits(loaded.text, edits);
      if (!applied.ok) return { isError: true, text: `${shown}: ${applied.error}; nothing was renamed.` };
      const encoded = encodeEdited(applied.text, loaded.format);
      if (!encoded.ok) return { isError: true, text: `${shown}: ${encoded.error}; nothing was renamed.` };
      total += edits.length;
      report.push(`${shown}: ${edits.length} edit${edits.length === 1 ? '' : 's'}`);
      if (input.preview) report.push(await compactDiff(shown, loaded.text, applied.text));
      changes.push({
        path: file,
        shown,
        bytes: encoded.bytes,
        expect: loaded.hash,
        checkFolder: editFolderCheck(ctx, file),
      });
    }
    const summary = `${plan.word || plan.where} → ${input.new_name}: ${total} edit${total === 1 ? '' : 's'} in ${changes.length} file${changes.length === 1 ? '' : 's'}`;
    if (plan.leftovers.length > 0)
      report.push(`Left with the old name (accept_leftovers):\n${await formatPlaces(plan.leftovers, show)}`);
    if (input.preview) return { text: `Preview (nothing written): ${summary}.\n${report.join('\n')}` };
    try {
      // The servers' places are in the files on disk: an editor holding other text refuses the write.
      await commitTextChanges(changes, ctx.editor);
    } catch (error) {
      if (error instanceof WriteRefusedError)
        return { isError: true, text: `${error.message} Nothing was renamed.` };
      throw error;
    }
    for (const change of changes)
      if (change.bytes instanceof Uint8Array) ctx.readFiles.saw(change.path, change.bytes);
    return {
      text: `Renamed ${summary}.\n${report.join('\n')}`,
      data: { edits: total, files: changes.length },
    };
  },
});
