import { fileURLToPath } from 'node:url';
import type {
  CallHierarchyIncomingCall,
  CallHierarchyItem,
  CallHierarchyOutgoingCall,
  DocumentSymbol,
  Hover,
  Location,
  LocationLink,
  MarkedString,
  SymbolInformation,
  WorkspaceSymbol,
} from 'vscode-languageserver-protocol';
import { symbolKindName } from '../../lsp/address.js';
import { formatPlaces, MAX_LOCATIONS, type Place, placesOf } from '../../lsp/locations.js';
import { type Addressed, placeName, positionParams } from './address_input.js';

/** Hover text is cut here: a type can print very long. */
const MAX_HOVER = 4000;

type Show = (file: string) => string;

const LOCATION_METHODS = {
  definition: ['textDocument/definition', 'Definition'],
  type_definition: ['textDocument/typeDefinition', 'Type definition'],
  implementation: ['textDocument/implementation', 'Implementations'],
} as const;

export async function locationsAnswer(
  operation: keyof typeof LOCATION_METHODS,
  at: Addressed,
  show: Show,
  signal: AbortSignal,
): Promise<string> {
  const [method, title] = LOCATION_METHODS[operation];
  const answer = await at.server.request<Location | Location[] | LocationLink[] | null>(
    method,
    positionParams(at),
    signal,
  );
  const places = placesOf(answer);
  if (places.length === 0)
    return `No ${title.toLowerCase()} found for ${at.word || 'the symbol'} at ${placeName(at)}.`;
  return `${title} of ${at.word || placeName(at)}:\n${await formatPlaces(places, show)}`;
}

function markedText(content: MarkedString | { kind: string; value: string }): string {
  if (typeof content === 'string') return content;
  if ('language' in content) return `\`\`\`${content.language}\n${content.value}\n\`\`\``;
  return content.value;
}

export async function hoverAnswer(at: Addressed, signal: AbortSignal): Promise<string> {
  const hover = await at.server.request<Hover | null>('textDocument/hover', positionParams(at), signal);
  const contents = hover?.contents;
  const text = (Array.isArray(contents) ? contents.map(markedText) : contents ? [markedText(contents)] : [])
    .join('\n\n')
    .trim();
  if (!text) return `No hover information for ${at.word || 'the symbol'} at ${placeName(at)}.`;
  return text.length > MAX_HOVER ? `${text.slice(0, MAX_HOVER - 1)}…` : text;
}

/** The document's declarations as an indented outline: `name (kind) line`. */
export function symbolsOutline(symbols: ReadonlyArray<DocumentSymbol | SymbolInformation>): string {
  const lines: string[] = [];
  const walk = (items: readonly DocumentSymbol[], depth: number) => {
    for (const s of items) {
      lines.push(
        `${'  '.repeat(depth)}${s.name} (${symbolKindName(s.kind)}) ${s.selectionRange.start.line + 1}`,
      );
      walk(s.children ?? [], depth + 1);
    }
  };
  for (const s of symbols) {
    if ('selectionRange' in s) walk([s], 0);
    else {
      const container = s.containerName ? `${s.containerName}.` : '';
      lines.push(`${container}${s.name} (${symbolKindName(s.kind)}) ${s.location.range.start.line + 1}`);
    }
  }
  return lines.join('\n');
}

/** Workspace symbols: `name (kind)  path:line`, at most 50, then a count. */
export function workspaceSymbolsAnswer(
  symbols: ReadonlyArray<SymbolInformation | WorkspaceSymbol>,
  show: Show,
): string {
  const rows = symbols
    .filter((s) => s.location.uri.startsWith('file:'))
    .map((s) => {
      const file = show(fileURLToPath(s.location.uri));
      const line = 'range' in s.location ? `:${s.location.range.start.line + 1}` : '';
      const container = s.containerName ? `${s.containerName}.` : '';
      return `${container}${s.name} (${symbolKindName(s.kind)})  ${file}${line}`;
    });
  const more =
    rows.length > MAX_LOCATIONS ? `\n… ${rows.length - MAX_LOCATIONS} more (${rows.length} in all)` : '';
  return rows.slice(0, MAX_LOCATIONS).join('\n') + more;
}

export async function callsAnswer(
  direction: 'incoming' | 'outgoing',
  at: Addressed,
  show: Show,
  signal: AbortSignal,
): Promise<string> {
  const items = await at.server.request<CallHierarchyItem[] | null>(
    'textDocument/prepareCallHierarchy',
    positionParams(at),
    signal,
  );
  if (!items || items.length === 0)
    return `${at.word || placeName(at)} is not something that calls or is called.`;
  const places: Place[] = [];
  const names = new Map<string, string>();
  for (const item of items) {
    if (direction === 'incoming') {
      const calls =
        (await at.server.request<CallHierarchyIncomingCall[] | null>(
          'callHierarchy/incomingCalls',
          { item },
          signal,
        )) ?? [];
      for (const call of calls) {
        for (const range of call.fromRanges) places.push(...placesOf({ uri: call.from.uri, range }));
        names.set(call.from.uri, call.from.name);
      }
    } else {
      const calls =
        (await at.server.request<CallHierarchyOutgoingCall[] | null>(
          'callHierarchy/outgoingCalls',
          { item },
          signal,
        )) ?? [];
      // The callees, each where it is declared.
      for (const call of calls) places.push(...placesOf({ uri: call.to.uri, range: call.to.selectionRange }));
    }
  }
  const what = direction === 'incoming' ? 'Calls of' : 'Called by';
  if (places.length === 0) return `${what} ${at.word || placeName(at)}: none found.`;
  return `${what} ${at.word || placeName(at)}:\n${await formatPlaces(places, show)}`;
}
