import { z } from 'zod';
import { type Address, addressProblem, resolveAddress } from '../../lsp/address.js';
import { shownName } from '../../lsp/language_servers.js';
import type { LanguageServerHandle } from '../../tool/context/language_servers.js';
import type { ToolContext } from '../../tool/types.js';
import { absolutePath, pathKind, pathProblem } from '../shared/paths.js';

/** The addressing fields every tool that names a symbol takes. */
export const addressFields = {
  path: z.string().min(1).describe('The file the symbol is in'),
  line: z.number().int().min(1).optional().describe('1-based line of the symbol (with column)'),
  column: z.number().int().min(1).optional().describe('1-based column of the symbol (with line)'),
  symbol: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Or: the symbol by name path through the file\'s declarations, e.g. "Greeter.greet" or "greet"',
    ),
  anchor: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Or: text in the file that starts at the symbol, e.g. "greet(name" (the first identifier in it is meant)',
    ),
  occurrence: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('With anchor: which occurrence (1-based) when it occurs more than once'),
};

export const ADDRESS_HELP =
  'Name the symbol one of three ways: line and column (1-based), symbol (a name path such as "Class.method"), or anchor (text that starts at it, with occurrence when it repeats).';

/** How to add a server for a language, for `unavailable` answers. */
export function configureHint(language: string | undefined): string {
  const example = `"lsp": {"servers": {"NAME": {"command": "…", "args": ["--stdio"], "languages": ["${language ?? 'LANGUAGE'}"]}}}`;
  return `Configure one in settings: ${example} (see docs/lsp.md; lathe lsp status lists the servers).`;
}

/** A file opened with its server and the place an address names in it. */
export interface Addressed {
  server: LanguageServerHandle;
  file: string;
  shown: string;
  uri: string;
  text: string;
  position: { line: number; character: number };
  /** The identifier at the place. */
  word: string;
}

export type Opened =
  | { ok: true; server: LanguageServerHandle; file: string; shown: string; uri: string; text: string }
  | { ok: false; error: string; unavailable?: { language?: string; reason: string } };

/** validateInput's part: the file exists and is a file. */
export async function fileProblem(ctx: Pick<ToolContext, 'cwd'>, path: string): Promise<string | undefined> {
  return pathProblem(path, (await pathKind(absolutePath(ctx, path))).kind, 'file');
}

/** The file's server, started if need be, with the file synced to it. */
export async function openWithServer(ctx: ToolContext, path: string): Promise<Opened> {
  const file = absolutePath(ctx, path);
  const shown = shownName(file, ctx.workspace);
  const servers = ctx.languageServers;
  if (!servers)
    return {
      ok: false,
      error: 'unavailable: no language servers in this runtime',
      unavailable: { reason: 'none' },
    };
  const server = await servers.serverFor(file, {
    workspace: ctx.workspace,
    signal: ctx.signal,
    progress: ctx.progress,
  });
  if ('unavailable' in server) {
    const language = server.language;
    const reason = server.unavailable;
    const hint = reason.startsWith('no server') ? ` ${configureHint(language)}` : '';
    return { ok: false, error: `unavailable: ${reason}.${hint}`, unavailable: { language, reason } };
  }
  const { uri, text } = await server.sync(file);
  return { ok: true, server, file, shown, uri, text };
}

/** Opens the file and resolves the address in the server's copy of it. */
export async function openAddressed(
  ctx: ToolContext,
  address: Address,
): Promise<
  | { ok: true; at: Addressed }
  | { ok: false; error: string; unavailable?: { language?: string; reason: string } }
> {
  const opened = await openWithServer(ctx, address.path);
  if (!opened.ok) return opened;
  const resolved = await resolveAddress(opened.server, opened.uri, opened.text, address, ctx.signal);
  if (!resolved.ok) return { ok: false, error: `${opened.shown}: ${resolved.error}` };
  return { ok: true, at: { ...opened, position: resolved.position, word: resolved.word } };
}

/** The shared validateInput of the addressing tools. */
export async function validateAddress(
  input: Address,
  ctx: Pick<ToolContext, 'cwd'>,
): Promise<string | undefined> {
  return addressProblem(input) ?? (await fileProblem(ctx, input.path));
}

/** `src/a.ts:3:5` for a resolved place. */
export const placeName = (at: Addressed): string =>
  `${at.shown}:${at.position.line + 1}:${at.position.character + 1}`;

/** A request's params for the addressed place. */
export const positionParams = (at: Addressed) => ({ textDocument: { uri: at.uri }, position: at.position });
