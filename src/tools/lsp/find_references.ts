import { join } from 'node:path';
import type { Location } from 'vscode-languageserver-protocol';
import { z } from 'zod';
import { resolveByText } from '../../lsp/address.js';
import { shownName } from '../../lsp/language_servers.js';
import { formatPlaces, MAX_LOCATIONS, type Place, placesOf } from '../../lsp/locations.js';
import { buildTool, SEARCH_RESULT_CHARS } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import type { ToolContext, ToolOutput } from '../../tool/types.js';
import { loadTextFile } from '../edit/text_file.js';
import { COMMON_RG_FLAGS, ripgrepError, runRipgrep } from '../search/ripgrep.js';
import { readableFilter } from '../shared/denied_paths.js';
import { absolutePath } from '../shared/paths.js';
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
    include_declaration: z.boolean().optional().describe('List the declaration too (default true)'),
  }),
);
type Input = z.infer<typeof inputSchema>;

/** Places ripgrep finds beyond this are counted, not read. */
const MAX_TEXT_MATCHES = 1000;

/**
 * Without a server for the language: whole-word matches of the symbol's name across the
 * workspace, said to be that.
 */
async function textSearchFallback(input: Input, ctx: ToolContext, why: string): Promise<ToolOutput> {
  const file = absolutePath(ctx, input.path);
  const shown = shownName(file, ctx.workspace);
  const loaded = await loadTextFile(file, shown);
  if (!loaded.ok) return { isError: true, text: loaded.error };
  const resolved = resolveByText(loaded.text, input);
  if (!resolved.ok) return { isError: true, text: `${shown}: ${resolved.error}` };
  const word = resolved.word;
  if (!word) return { isError: true, text: `${shown}: there is no identifier at that place.` };
  const run = await runRipgrep(
    [
      ...COMMON_RG_FLAGS,
      '--line-number',
      '--column',
      '--no-heading',
      '--word-regexp',
      '--fixed-strings',
      '--',
      word,
      '.',
    ],
    { cwd: ctx.workspace, signal: ctx.signal, maxLines: MAX_TEXT_MATCHES },
  );
  if (run.exitCode === 2 && run.lines.length === 0)
    return { isError: true, text: `find_references failed: ${ripgrepError(run.stderr)}` };
  const places: Place[] = [];
  const readable = readableFilter(ctx, 'find_references');
  for (const line of run.lines) {
    const match = /^(.*?):(\d+):(\d+):/.exec(line);
    if (!match) continue;
    const start = { line: Number(match[2]) - 1, character: Number(match[3]) - 1 };
    const place = { file: join(ctx.workspace, match[1]), range: { start, end: start } };
    if (readable?.(place.file) ?? true) places.push(place);
  }
  const note = `${why}: these are whole-word text matches of ${word} (they may include unrelated uses and miss renamed imports).`;
  if (places.length === 0) return { text: `${note}\nNo matches.` };
  const more = run.truncated ? `\n(over ${MAX_TEXT_MATCHES} matches; the first are listed)` : '';
  return { text: `${note}\n${await formatPlaces(places, (f) => shownName(f, ctx.workspace))}${more}` };
}

export const findReferences = buildTool({
  name: 'find_references',
  inputSchema,
  description:
    `Every reference to a symbol across the workspace, from the language server of the file's language. ${ADDRESS_HELP} ` +
    `Results are grouped by file with one line of context each (at most ${MAX_LOCATIONS}). Without a server for the ` +
    'language, falls back to a whole-word text search and says so.',
  liteDescription: 'References of a symbol via the language server.',
  availability: { profiles: ['standard'], requires: ['languageServer'] },
  kind: 'search',
  example: {
    files: { 'a.ts': 'export const answer = 42;\nconsole.log(answer);\n' },
    input: { path: 'a.ts', anchor: 'answer', occurrence: 1 },
  },
  maxResultChars: SEARCH_RESULT_CHARS,
  userFacingName: () => 'Find references',
  detail: (input, show) =>
    `${input.symbol ?? input.anchor ?? `${input.line}:${input.column}`} in ${show(input.path)}`,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  permissionSubject: (input) => ({ kind: 'read', paths: [input.path, '.'] }),
  validateInput: (input, ctx) => validateAddress(input, ctx),
  async call(input, ctx) {
    try {
      const found = await openAddressed(ctx, input);
      if (!found.ok) {
        if (!found.unavailable) return { isError: true, text: found.error };
        return textSearchFallback(
          input,
          ctx,
          fallbackReason(found.unavailable, shownName(absolutePath(ctx, input.path), ctx.workspace)),
        );
      }
      const { at } = found;
      if (!at.server.capabilities.referencesProvider)
        return textSearchFallback(
          input,
          ctx,
          `The ${at.server.name} language server does not find references`,
        );
      // The server finds references only in the files it has been told of.
      await openFilesWithWord(at.server, at.word, ctx, 'find_references');
      let answer: Location[] | null;
      try {
        answer = await at.server.request<Location[] | null>(
          'textDocument/references',
          { ...positionParams(at), context: { includeDeclaration: input.include_declaration ?? true } },
          ctx.signal,
        );
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        return textSearchFallback(
          input,
          ctx,
          `The ${at.server.name} language server failed (${(error as Error).message})`,
        );
      }
      const places = placesOf(answer);
      if (places.length === 0)
        return { text: `No references found for ${at.word || 'the symbol'} at ${placeName(at)}.` };
      const count = places.length === 1 ? '1 reference' : `${places.length} references`;
      const list = await formatPlaces(places, (f) => shownName(f, ctx.workspace));
      return { text: `${count} to ${at.word || placeName(at)}:\n${list}`, data: { count: places.length } };
    } catch (error) {
      return { isError: true, text: `find_references failed: ${(error as Error).message}` };
    }
  },
});

/** Why the text search answers instead of a server, as its result's first words say. */
function fallbackReason(unavailable: { language?: string; reason: string }, shown: string): string {
  const { language, reason } = unavailable;
  if (reason === 'none' || reason.startsWith('no server'))
    return `No language server for ${language ?? shown}`;
  if (!language) return `No language server knows ${shown}`;
  return `The ${language} language server is unavailable (${reason})`;
}
