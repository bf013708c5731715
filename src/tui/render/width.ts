import stringWidth from 'string-width';
import { graphemeClusters } from './graphemes.js';
import type { Line, Span, Style } from './style.js';

/** Printable ASCII only: one column a character, measured without segmenting. */
const isPrintableAscii = (text: string): boolean => /^[\x20-\x7e]*$/.test(text);
/** Widths of the grapheme clusters seen so far: measuring one is costly, and text repeats them. */
const clusterWidths = new Map<string, number>();
const MAX_REMEMBERED = 4096;

/** Columns one grapheme cluster takes. */
function clusterWidth(cluster: string): number {
  if (cluster.length === 1) {
    const code = cluster.charCodeAt(0);
    if (code >= 0x20 && code < 0x7f) return 1;
  }
  let width = clusterWidths.get(cluster);
  if (width === undefined) {
    width = stringWidth(cluster);
    if (clusterWidths.size >= MAX_REMEMBERED) clusterWidths.clear();
    clusterWidths.set(cluster, width);
  }
  return width;
}

/** Columns a code point takes in a terminal: 0 for combining marks, 2 for wide (CJK, emoji). */
export function charWidth(cp: number): number {
  return clusterWidth(String.fromCodePoint(cp));
}

/** Columns a text takes in a terminal, measured as Ink measures it (✅, 🚀, 中 take 2). */
export function textWidth(text: string): number {
  if (isPrintableAscii(text)) return text.length;
  let width = 0;
  for (const cluster of graphemeClusters(text)) width += clusterWidth(cluster);
  return width;
}

/** The text's grapheme clusters with their widths. */
function* charactersOf(text: string): Generator<{ text: string; width: number }> {
  for (const cluster of graphemeClusters(text)) yield { text: cluster, width: clusterWidth(cluster) };
}

export function lineWidth(line: Line): number {
  let width = 0;
  for (const span of line) width += textWidth(span.text);
  return width;
}

/** Tabs become spaces and other control characters go: they would break the layout. */
export function sanitize(text: string): string {
  return text.replace(/\t/g, '    ').replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '');
}

interface Atom {
  text: string;
  style?: Style;
  space: boolean;
}

function atomsOf(line: Line): Atom[] {
  const atoms: Atom[] = [];
  for (const span of line) {
    for (const part of span.text.match(/\s+|\S+/g) ?? []) {
      atoms.push({ text: part, style: span.style, space: /^\s/.test(part) });
    }
  }
  return atoms;
}

/** Splits text into pieces of at most `width` columns (for words longer than a line). */
function hardBreak(text: string, width: number): string[] {
  const pieces: string[] = [];
  let current = '';
  let currentWidth = 0;
  for (const { text: ch, width: w } of charactersOf(text)) {
    if (currentWidth + w > width && current !== '') {
      pieces.push(current);
      current = '';
      currentWidth = 0;
    }
    current += ch;
    currentWidth += w;
  }
  if (current !== '') pieces.push(current);
  return pieces;
}

const push = (line: Line, text: string, style?: Style) => {
  const last = line[line.length - 1];
  if (last && last.style === style) last.text += text;
  else line.push(style ? { text, style } : { text });
};

/**
 * Word-wraps a styled line to `width` columns. Continuation lines start with `indent` (a hanging
 * indent for list items and quotes); words longer than a line are broken.
 */
export function wrapLine(line: Line, width: number, indent: Line = []): Line[] {
  const max = Math.max(1, width);
  const indentWidth = lineWidth(indent);
  const out: Line[] = [];
  let current: Line = [];
  let used = 0;
  let pendingSpace: Atom[] = [];
  const newLine = () => {
    out.push(current);
    current = indent.map((s) => ({ ...s }));
    used = indentWidth;
    pendingSpace = [];
  };
  const atoms = atomsOf(line);
  for (let i = 0; i < atoms.length; i++) {
    const atom = atoms[i];
    if (atom.space) {
      // Leading indentation of the first line is kept; elsewhere spaces wait for the next word.
      if (out.length === 0 && used === 0) {
        push(current, atom.text, atom.style);
        used += textWidth(atom.text);
      } else pendingSpace.push(atom);
      continue;
    }
    // A word may run over several spans (`**bold**word`): measure the whole group.
    const group: Atom[] = [atom];
    while (i + 1 < atoms.length && !atoms[i + 1].space) group.push(atoms[++i]);
    const groupWidth = group.reduce((sum, a) => sum + textWidth(a.text), 0);
    const spaceWidth = pendingSpace.reduce((sum, a) => sum + textWidth(a.text), 0);
    if (used + spaceWidth + groupWidth <= max) {
      for (const s of pendingSpace) push(current, s.text, s.style);
      pendingSpace = [];
      for (const a of group) push(current, a.text, a.style);
      used += spaceWidth + groupWidth;
      continue;
    }
    if (used > (out.length === 0 ? 0 : indentWidth)) newLine();
    pendingSpace = [];
    if (used + groupWidth <= max) {
      for (const a of group) push(current, a.text, a.style);
      used += groupWidth;
      continue;
    }
    for (const a of group) {
      for (const piece of hardBreak(a.text, Math.max(1, max - indentWidth))) {
        const w = textWidth(piece);
        if (used + w > max && used > indentWidth) newLine();
        push(current, piece, a.style);
        used += w;
      }
    }
  }
  out.push(current);
  return out;
}

/** Cuts a line to `width` columns, ending with an ellipsis when something was cut. */
export function truncateLine(line: Line, width: number): Line {
  if (lineWidth(line) <= width) return line;
  const out: Line = [];
  let used = 0;
  const room = Math.max(0, width - 1);
  for (const span of line) {
    let text = '';
    for (const { text: ch, width: w } of charactersOf(span.text)) {
      if (used + w > room) break;
      text += ch;
      used += w;
    }
    if (text) out.push({ ...span, text } as Span);
    if (used >= room || text.length < span.text.length) break;
  }
  out.push({ text: '…' });
  return out;
}

export function truncateText(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  return truncateLine([{ text }], width)
    .map((s) => s.text)
    .join('');
}
