import { createRequire } from 'node:module';
import { type Line, STYLES, type Style } from './style.js';
import { lineWidth, sanitize, wrapLine } from './width.js';

// The word diff is loaded at the first card drawn, not with the first frame.
const load = createRequire(import.meta.url);
let words: typeof import('diff').diffWordsWithSpace | undefined;
const diffWords = (removed: string, added: string) => {
  words ??= (load('diff') as typeof import('diff')).diffWordsWithSpace;
  return words(removed, added);
};

/** One row of a diff: its kind, its line number on its side, its text. */
interface DiffRow {
  kind: 'context' | 'removed' | 'added' | 'gap' | 'file';
  number?: number;
  text: string;
}

/** A unified diff's rows, numbered from its hunk headers; the `---`/`+++` rows name the file. */
export function diffRows(diff: string): DiffRow[] {
  const rows: DiffRow[] = [];
  let oldLine = 0;
  let newLine = 0;
  let hunks = 0;
  for (const text of diff.split('\n')) {
    if (text.startsWith('--- ')) continue;
    if (text.startsWith('+++ ')) {
      rows.push({ kind: 'file', text: text.slice(4).replace(/^b\//, '') });
      hunks = 0;
      continue;
    }
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)/.exec(text);
    if (hunk) {
      if (hunks++ > 0) rows.push({ kind: 'gap', text: '⋯' });
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
    } else if (text.startsWith('-')) rows.push({ kind: 'removed', number: oldLine++, text: text.slice(1) });
    else if (text.startsWith('+')) rows.push({ kind: 'added', number: newLine++, text: text.slice(1) });
    else if (text.startsWith(' ')) {
      rows.push({ kind: 'context', number: newLine, text: text.slice(1) });
      oldLine++;
      newLine++;
    }
  }
  return rows;
}

/** A changed line shows its changed words only when most of it stayed: else all of it changed. */
const SIMILAR = 0.5;

/** The words of a removed line and the added line that replaced it, the changed ones marked. */
function wordSpans(removed: string, added: string): { removed: Line; added: Line } | undefined {
  const parts = diffWords(removed, added);
  const kept = parts.filter((p) => !p.added && !p.removed).reduce((n, p) => n + p.value.length, 0);
  if (kept < SIMILAR * Math.max(removed.length, added.length)) return undefined;
  const side = (drop: 'added' | 'removed', line: Style, word: Style): Line =>
    parts
      .filter((p) => !p[drop])
      .map((p) => ({ text: sanitize(p.value), style: p.added || p.removed ? word : line }));
  return {
    removed: side('added', STYLES.diffRemoved, STYLES.diffRemovedWord),
    added: side('removed', STYLES.diffAdded, STYLES.diffAddedWord),
  };
}

/** Each removed line paired with the added line in the same place of its block of changes. */
function pairedWords(rows: DiffRow[]): Map<DiffRow, Line> {
  const words = new Map<DiffRow, Line>();
  for (let i = 0; i < rows.length; ) {
    const removed: DiffRow[] = [];
    const added: DiffRow[] = [];
    while (rows[i]?.kind === 'removed') removed.push(rows[i++]);
    while (rows[i]?.kind === 'added') added.push(rows[i++]);
    if (removed.length === 0 && added.length === 0) {
      i++;
      continue;
    }
    for (let k = 0; k < Math.min(removed.length, added.length); k++) {
      const pair = wordSpans(removed[k].text, added[k].text);
      if (!pair) continue;
      words.set(removed[k], pair.removed);
      words.set(added[k], pair.added);
    }
  }
  return words;
}

const BAND: Partial<Record<DiffRow['kind'], { mark: string; line: Style; markStyle: Style }>> = {
  removed: { mark: '-', line: STYLES.diffRemoved, markStyle: STYLES.diffRemovedMark },
  added: { mark: '+', line: STYLES.diffAdded, markStyle: STYLES.diffAddedMark },
};

/** A row padded with its band's background to the full width. */
function padded(line: Line, width: number, style: Style | undefined): Line {
  const room = width - lineWidth(line);
  return style && room > 0 ? [...line, { text: ' '.repeat(room), style }] : line;
}

/**
 * A change as a card: line numbers, removed and added lines on background bands with their
 * changed words marked, context lines plain, `⋯` between hunks. The file is named by the card's
 * title; a diff of several files names each above its rows.
 */
export function renderDiffCard(diff: string, width: number, options: { files?: boolean } = {}): Line[] {
  const rows = diffRows(diff);
  const files = rows.filter((r) => r.kind === 'file').length;
  const words = pairedWords(rows);
  const numbers = rows.flatMap((r) => (r.number !== undefined ? [r.number] : []));
  const gutter = String(Math.max(1, ...numbers)).length;
  const out: Line[] = [];
  for (const row of rows) {
    if (row.kind === 'file') {
      if (files > 1 || options.files) out.push([{ text: `  ${sanitize(row.text)}`, style: { bold: true } }]);
      continue;
    }
    if (row.kind === 'gap') {
      out.push([{ text: `  ${' '.repeat(gutter)} ⋯`, style: STYLES.diffGap }]);
      continue;
    }
    const band = BAND[row.kind];
    const number = `  ${String(row.number).padStart(gutter)} `;
    const head: Line = [
      {
        text: number,
        style: band ? { ...STYLES.lineNumber, background: band.line.background } : STYLES.lineNumber,
      },
      { text: `${band?.mark ?? ' '} `, style: band?.markStyle },
    ];
    const body = words.get(row) ?? [{ text: sanitize(row.text), style: band?.line }];
    const indent: Line = [{ text: ' '.repeat(number.length + 2), style: band?.line }];
    for (const line of wrapLine([...head, ...body], width, indent)) out.push(padded(line, width, band?.line));
  }
  return out;
}
