import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Location, LocationLink, Range } from 'vscode-languageserver-protocol';
import { decodeText } from '../edit/codec.js';
import { lineStarts, lineText } from './text_positions.js';

/** Locations one result lists at most; past it, a count. */
export const MAX_LOCATIONS = 50;
/** Context lines are cut at this many characters. */
const MAX_CONTEXT = 160;

/** A place in a file, as results list it. */
export interface Place {
  file: string;
  range: Range;
}

/** The places of a definition-like answer: one Location, several, or LocationLinks. */
export function placesOf(answer: Location | Location[] | LocationLink[] | null | undefined): Place[] {
  if (!answer) return [];
  const list = Array.isArray(answer) ? answer : [answer];
  return list
    .map((item): Place | undefined => {
      const uri = 'targetUri' in item ? item.targetUri : item.uri;
      const range = 'targetUri' in item ? item.targetSelectionRange : item.range;
      if (!uri.startsWith('file:')) return undefined;
      return { file: fileURLToPath(uri), range };
    })
    .filter((p): p is Place => p !== undefined);
}

/** Reads each file once for its context lines; a file that cannot be read shows none. */
export class LineSource {
  private readonly cache = new Map<string, Promise<{ text: string; starts: number[] } | undefined>>();

  line(file: string, line: number): Promise<string | undefined> {
    let loaded = this.cache.get(file);
    if (!loaded) {
      loaded = readFile(file)
        .then((bytes) => {
          const decoded = decodeText(bytes);
          return decoded.ok ? { text: decoded.text, starts: lineStarts(decoded.text) } : undefined;
        })
        .catch(() => undefined);
      this.cache.set(file, loaded);
    }
    return loaded.then((f) => (f && line < f.starts.length ? lineText(f.text, f.starts, line) : undefined));
  }
}

const context = (text: string | undefined) => {
  const trimmed = (text ?? '').trim();
  return trimmed.length > MAX_CONTEXT ? `${trimmed.slice(0, MAX_CONTEXT - 1)}…` : trimmed;
};

/**
 * Places grouped by file (paths as `show` gives them, files in path order, places in line
 * order), one line of context each, at most 50 and then a count.
 */
export async function formatPlaces(
  places: readonly Place[],
  show: (file: string) => string,
): Promise<string> {
  const unique = new Map<string, Place>();
  for (const p of places) unique.set(`${p.file}:${p.range.start.line}:${p.range.start.character}`, p);
  const sorted = [...unique.values()].sort(
    (a, b) =>
      show(a.file).localeCompare(show(b.file)) ||
      a.range.start.line - b.range.start.line ||
      a.range.start.character - b.range.start.character,
  );
  const listed = sorted.slice(0, MAX_LOCATIONS);
  const lines = new LineSource();
  const out: string[] = [];
  let current: string | undefined;
  for (const p of listed) {
    const shown = show(p.file);
    if (shown !== current) {
      out.push(shown);
      current = shown;
    }
    const { line, character } = p.range.start;
    out.push(`  ${line + 1}:${character + 1}  ${context(await lines.line(p.file, line))}`);
  }
  if (sorted.length > listed.length)
    out.push(`… ${sorted.length - listed.length} more (${sorted.length} in all)`);
  return out.join('\n');
}
