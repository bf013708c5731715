import type { DocumentSymbol, SymbolInformation, WorkspaceSymbol } from 'vscode-languageserver-protocol';
import { z } from 'zod';
import { addressProblem } from '../../lsp/address.js';
import { shownName } from '../../lsp/language_servers.js';
import { buildTool, SEARCH_RESULT_CHARS } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { absolutePath } from '../shared/paths.js';
import { ADDRESS_HELP, addressFields, fileProblem, openAddressed, openWithServer } from './address_input.js';
import {
  callsAnswer,
  hoverAnswer,
  locationsAnswer,
  symbolsOutline,
  workspaceSymbolsAnswer,
} from './lsp_answers.js';

const OPERATIONS = [
  'definition',
  'type_definition',
  'implementation',
  'hover',
  'document_symbols',
  'workspace_symbols',
  'incoming_calls',
  'outgoing_calls',
  'diagnostics',
] as const;
type Operation = (typeof OPERATIONS)[number];

/** Operations about one place in a file: they take an address. */
const AT_A_PLACE: ReadonlySet<Operation> = new Set([
  'definition',
  'type_definition',
  'implementation',
  'hover',
  'incoming_calls',
  'outgoing_calls',
]);

const inputSchema = lazySchema(() =>
  z.strictObject({
    operation: z.enum(OPERATIONS).describe('What to ask the language server'),
    ...addressFields,
    path: addressFields.path
      .optional()
      .describe('The file (every operation but workspace_symbols; optional for diagnostics)'),
    query: z.string().optional().describe('workspace_symbols: the name (or part of it) to look for'),
  }),
);
type Input = z.infer<typeof inputSchema>;

export const lsp = buildTool({
  name: 'lsp',
  deferred: true,
  inputSchema,
  description:
    "Code intelligence from the language server of the file's language: definitions, hover, symbols, calls, diagnostics. " +
    'Operations: definition, type_definition, implementation, hover (type and docs), incoming_calls, outgoing_calls ' +
    '(these take a place in a file), document_symbols {path}, ' +
    `workspace_symbols {query}, diagnostics {path?}. ${ADDRESS_HELP} Paths in answers are relative to the workspace; ` +
    'answers list at most 50 places.',
  liteDescription: 'Language server: definition, hover, symbols, calls, diagnostics.',
  availability: { profiles: ['standard'], feature: 'lsp' },
  kind: 'search',
  example: {
    files: { 'a.ts': 'export const answer = 42;\n' },
    input: { operation: 'hover', path: 'a.ts', symbol: 'answer' },
  },
  maxResultChars: SEARCH_RESULT_CHARS,
  userFacingName: () => 'Code intelligence',
  detail: (input, show) =>
    `${input.operation}${input.path ? ` ${show(input.path)}` : ''}${input.query ? ` ${input.query}` : ''}`,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  permissionSubject: (input) => ({ kind: 'read', paths: input.path ? [input.path] : [] }),
  async validateInput(input, ctx) {
    if (input.operation === 'workspace_symbols') {
      if (input.query === undefined) return 'workspace_symbols needs query (a name or part of one).';
      if (input.path === undefined) return 'workspace_symbols needs path: a file of the language to search.';
      return fileProblem(ctx, input.path);
    }
    if (input.path === undefined)
      return input.operation === 'diagnostics' ? undefined : `${input.operation} needs path (the file).`;
    if (AT_A_PLACE.has(input.operation)) {
      const problem = addressProblem(input);
      if (problem) return problem;
    }
    return fileProblem(ctx, input.path);
  },
  async call(input: Input, ctx) {
    const show = (file: string) => shownName(file, ctx.workspace);
    const servers = ctx.languageServers;
    if (!servers) return { isError: true, text: 'unavailable: no language servers in this runtime.' };
    const { operation } = input;
    try {
      if (operation === 'diagnostics') {
        const file = input.path === undefined ? undefined : absolutePath(ctx, input.path);
        return {
          text: await servers.diagnosticsReport(file, {
            workspace: ctx.workspace,
            signal: ctx.signal,
            progress: ctx.progress,
          }),
        };
      }
      if (operation === 'workspace_symbols') {
        const opened = await openWithServer(ctx, input.path!);
        if (!opened.ok) return { isError: true, text: opened.error };
        const symbols =
          (await opened.server.request<Array<SymbolInformation | WorkspaceSymbol> | null>(
            'workspace/symbol',
            { query: input.query },
            ctx.signal,
          )) ?? [];
        if (symbols.length === 0) return { text: `No symbols match ${JSON.stringify(input.query)}.` };
        return { text: workspaceSymbolsAnswer(symbols, show) };
      }
      if (operation === 'document_symbols') {
        const opened = await openWithServer(ctx, input.path!);
        if (!opened.ok) return { isError: true, text: opened.error };
        const symbols =
          (await opened.server.request<Array<DocumentSymbol | SymbolInformation> | null>(
            'textDocument/documentSymbol',
            { textDocument: { uri: opened.uri } },
            ctx.signal,
          )) ?? [];
        return {
          text:
            symbols.length === 0
              ? `${opened.shown} declares no symbols.`
              : `${opened.shown}\n${symbolsOutline(symbols)}`,
        };
      }
      const found = await openAddressed(ctx, { ...input, path: input.path! });
      if (!found.ok) return { isError: true, text: found.error };
      const { at } = found;
      if (operation === 'hover') return { text: await hoverAnswer(at, ctx.signal) };
      if (operation === 'incoming_calls' || operation === 'outgoing_calls')
        return {
          text: await callsAnswer(
            operation === 'incoming_calls' ? 'incoming' : 'outgoing',
            at,
            show,
            ctx.signal,
          ),
        };
      return { text: await locationsAnswer(operation, at, show, ctx.signal) };
    } catch (error) {
      return { isError: true, text: `lsp ${operation} failed: ${(error as Error).message}` };
    }
  },
});
