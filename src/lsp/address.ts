import type { DocumentSymbol, Position, SymbolInformation } from 'vscode-languageserver-protocol';
import type { LanguageServerHandle } from '../tool/context/language_servers.js';
import { lineStarts, lineText, offsetAt, positionAt } from './text_positions.js';

/**
 * How a tool names a place in a file: `{line, column}` (1-based), `{symbol: "Class.method"}` (a
 * name path through the document's symbols) or `{anchor: "text", occurrence?}` (found by text).
 */
export interface Address {
  path: string;
  line?: number;
  column?: number;
  symbol?: string;
  anchor?: string;
  occurrence?: number;
}

export type Resolved = { ok: true; position: Position; word: string } | { ok: false; error: string };

/** Exactly one addressing form, whole: a message saying what is missing or doubled, or undefined. */
export function addressProblem(a: Omit<Address, 'path'>): string | undefined {
  const forms = [
    a.line !== undefined || a.column !== undefined,
    a.symbol !== undefined,
    a.anchor !== undefined,
  ];
  const count = forms.filter(Boolean).length;
  if (count === 0)
    return 'Name the place: line and column (1-based), or symbol ("Class.method"), or anchor (text in the file).';
  if (count > 1) return 'Give one of line/column, symbol or anchor, not several.';
  if (forms[0] && (a.line === undefined || a.column === undefined))
    return 'line and column go together (both 1-based).';
  if (a.occurrence !== undefined && a.anchor === undefined) return 'occurrence goes with anchor.';
  return undefined;
}

const WORD = /[\p{L}\p{N}_$]/u;

/** The identifier at (or starting at) an offset, for messages and text-search fallbacks. */
export function wordAt(text: string, offset: number): string {
  let start = offset;
  let end = offset;
  while (start > 0 && WORD.test(text[start - 1])) start--;
  while (end < text.length && WORD.test(text[end])) end++;
  return text.slice(start, end);
}

function atLineColumn(text: string, line: number, column: number): Resolved {
  const starts = lineStarts(text);
  const lines = text.endsWith('\n') ? starts.length - 1 : starts.length;
  if (line > Math.max(lines, 1))
    return { ok: false, error: `line ${line} is past the end of the file (it has ${lines} lines).` };
  const content = lineText(text, starts, line - 1);
  if (column > content.length + 1)
    return {
      ok: false,
      error: `column ${column} is past the end of line ${line} (it has ${content.length} characters).`,
    };
  const position = { line: line - 1, character: column - 1 };
  return { ok: true, position, word: wordAt(text, offsetAt(text, starts, position)) };
}

function atAnchor(text: string, anchor: string, occurrence: number | undefined): Resolved {
  if (anchor === '') return { ok: false, error: 'anchor is empty: give text that occurs in the file.' };
  const found: number[] = [];
  for (let at = text.indexOf(anchor); at !== -1; at = text.indexOf(anchor, at + 1)) found.push(at);
  const starts = lineStarts(text);
  const lineOf = (offset: number) => positionAt(starts, offset).line + 1;
  if (found.length === 0)
    return { ok: false, error: `anchor ${JSON.stringify(anchor)} does not occur in the file.` };
  if (occurrence !== undefined && (occurrence < 1 || occurrence > found.length))
    return {
      ok: false,
      error: `anchor ${JSON.stringify(anchor)} occurs ${found.length} times; occurrence ${occurrence} does not exist.`,
    };
  if (occurrence === undefined && found.length > 1) {
    const lines = found.slice(0, 20).map(lineOf).join(', ');
    return {
      ok: false,
      error: `anchor ${JSON.stringify(anchor)} occurs ${found.length} times (lines ${lines}); give occurrence (1-based) or a longer anchor.`,
    };
  }
  // The place is the first identifier character of the anchor ("(greet" names greet).
  const at = found[(occurrence ?? 1) - 1];
  const skip = [...anchor].findIndex((ch) => WORD.test(ch));
  const offset = at + (skip > 0 ? anchor.slice(0, skip).length : 0);
  return { ok: true, position: positionAt(starts, offset), word: wordAt(text, offset) };
}

interface NamedSymbol {
  path: string[];
  kind: number;
  position: Position;
}

const KIND_NAMES: Record<number, string> = {
  5: 'class',
  6: 'method',
  7: 'property',
  8: 'field',
  9: 'constructor',
  10: 'enum',
  11: 'interface',
  12: 'function',
  13: 'variable',
  14: 'constant',
  22: 'enum member',
  23: 'struct',
  26: 'type parameter',
};
export const symbolKindName = (kind: number): string => KIND_NAMES[kind] ?? 'symbol';

/** The start of `name` at or after `from` on its line (a declaration's range starts at `export`). */
function nameStart(text: string, starts: readonly number[], from: Position, name: string): Position {
  const offset = offsetAt(text, starts, from);
  const lineEnd = from.line + 1 < starts.length ? starts[from.line + 1] : text.length;
  const at = text.slice(offset, lineEnd).search(new RegExp(`(?<![\\p{L}\\p{N}_$])${escapeRegex(name)}`, 'u'));
  return at === -1 ? from : positionAt(starts, offset + at);
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every symbol of a document with its name path (`Class.method`), hierarchical or flat. */
export function flattenSymbols(
  text: string,
  symbols: ReadonlyArray<DocumentSymbol | SymbolInformation>,
): NamedSymbol[] {
  const starts = lineStarts(text);
  const out: NamedSymbol[] = [];
  const walk = (items: readonly DocumentSymbol[], parents: string[]) => {
    for (const s of items) {
      const path = [...parents, s.name];
      out.push({ path, kind: s.kind, position: nameStart(text, starts, s.selectionRange.start, s.name) });
      walk(s.children ?? [], path);
    }
  };
  for (const s of symbols) {
    if ('selectionRange' in s) walk([s], []);
    else {
      const container = s.containerName ? s.containerName.split('.') : [];
      out.push({
        path: [...container, s.name],
        kind: s.kind,
        position: nameStart(text, starts, s.location.range.start, s.name),
      });
    }
  }
  return out;
}

const describe = (s: NamedSymbol) =>
  `${s.path.join('.')} (${symbolKindName(s.kind)}, line ${s.position.line + 1})`;

function atSymbol(text: string, symbols: NamedSymbol[], query: string): Resolved {
  const wanted = query.split('.').filter(Boolean);
  const matches = symbols.filter(
    (s) =>
      s.path.length >= wanted.length &&
      wanted.every((part, i) => s.path[s.path.length - wanted.length + i] === part),
  );
  // "Class.method" also finds members whose server names them with the class: prefer exact paths.
  const exact = matches.filter((s) => s.path.length === wanted.length);
  const chosen = matches.length > 1 && exact.length === 1 ? exact : matches;
  if (chosen.length === 1) {
    const position = chosen[0].position;
    return { ok: true, position, word: wordAt(text, offsetAt(text, lineStarts(text), position)) };
  }
  if (chosen.length > 1)
    return {
      ok: false,
      error: `symbol ${JSON.stringify(query)} is ambiguous: ${chosen.slice(0, 20).map(describe).join('; ')}. Give the longer name path or line and column.`,
    };
  const names = symbols.slice(0, 40).map((s) => s.path.join('.'));
  return {
    ok: false,
    error: `symbol ${JSON.stringify(query)} is not in the file. Its symbols: ${names.join(', ') || '(none)'}${symbols.length > 40 ? ', …' : ''}.`,
  };
}

/** The position an address names in `text` (the server's copy of the file), or why it names none. */
export async function resolveAddress(
  server: LanguageServerHandle,
  uri: string,
  text: string,
  address: Address,
  signal?: AbortSignal,
): Promise<Resolved> {
  if (address.symbol !== undefined) {
    const symbols = await server.request<Array<DocumentSymbol | SymbolInformation> | null>(
      'textDocument/documentSymbol',
      { textDocument: { uri } },
      signal,
    );
    return atSymbol(text, flattenSymbols(text, symbols ?? []), address.symbol);
  }
  if (address.anchor !== undefined) return atAnchor(text, address.anchor, address.occurrence);
  return atLineColumn(text, address.line ?? 1, address.column ?? 1);
}

/** The same without a server (text search fallbacks): line/column and anchor only. */
export function resolveByText(text: string, address: Address): Resolved {
  if (address.symbol !== undefined) {
    const last = address.symbol.split('.').pop() ?? address.symbol;
    return { ok: true, position: { line: 0, character: 0 }, word: last };
  }
  if (address.anchor !== undefined) return atAnchor(text, address.anchor, address.occurrence);
  return atLineColumn(text, address.line ?? 1, address.column ?? 1);
}
