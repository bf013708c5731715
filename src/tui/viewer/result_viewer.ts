import type { Key } from 'ink';
import { keyName } from '../input/key_names.js';
import { type Line, lineToAnsi, type Style, stripAnsi } from '../render/style.js';
import { sanitize, textWidth, truncateLine, truncateText, wrapLine } from '../render/width.js';
import type { TextLines } from './text_lines.js';

/** The first screen row a line shows, as its byte offset and the row within its wrapped rows. */
interface Position {
  line: number;
  row: number;
}

const MATCH: Style = { inverse: true };
const BAR: Style = { inverse: true };
const KEYS = '↑↓ PgUp PgDn Home End · / search, n N · q close';

const before = (a: Position, b: Position) => a.line < b.line || (a.line === b.line && a.row < b.row);

/** A search as typed: the words themselves, ignoring case unless they hold a capital. */
function searchPattern(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), /[A-Z]/.test(text) ? '' : 'i');
}

/**
 * A full-screen view of a whole tool result, read from where it is kept: only the lines on the
 * screen are read and wrapped, so a 50 MB output costs what one screen costs. Its keys are its
 * own (↑ ↓, PgUp PgDn and Space, Home End, `/` to search, n and N for the next and previous
 * match, q or Esc to close).
 */
export class ResultViewer {
  private top: Position = { line: 0, row: 0 };
  private typing?: string;
  private pattern?: RegExp;
  private message?: string;
  private wrapped = new Map<number, Line[]>();

  constructor(
    private readonly lines: TextLines,
    private readonly title: string,
    private size: { columns: number; rows: number },
  ) {}

  resize(size: { columns: number; rows: number }): void {
    this.size = size;
    this.wrapped.clear();
    this.top = { line: this.top.line, row: 0 };
  }

  /** Handles a key; false once the viewer is closed. */
  key(input: string, key: Key): boolean {
    // Typing that arrives in one burst (a paste, `tmux send-keys`) is taken a character at a time.
    if ([...input].length > 1 && !key.ctrl && !key.meta)
      return [...input].every((character) =>
        this.key(character === '\r' ? '' : character, { ...key, return: character === '\r' }),
      );
    const name = keyName(input, key) ?? (key.escape ? 'escape' : undefined);
    if (this.typing !== undefined) {
      this.typeSearch(input, name);
      return true;
    }
    this.message = undefined;
    const page = Math.max(1, this.bodyRows - 1);
    if (name === 'escape' || input === 'q') return false;
    if (name === 'down' || input === 'j' || name === 'enter') this.down(1);
    else if (name === 'up' || input === 'k') this.up(1);
    else if (name === 'pagedown' || input === ' ' || input === 'f') this.down(page);
    else if (name === 'pageup' || input === 'b') this.up(page);
    else if (name === 'home' || input === 'g') this.top = { line: 0, row: 0 };
    else if (name === 'end' || input === 'G') this.top = this.lastTop();
    else if (input === '/') this.typing = '';
    else if (input === 'n' || input === 'N') this.findNext(input === 'N');
    return true;
  }

  /** The whole screen, each row drawn over what was there. */
  frame(): string {
    const body = this.bodyLines();
    const rows = [...body, this.footer(body.length)];
    return rows.map((line, i) => `\x1b[${i + 1};1H\x1b[2K${lineToAnsi(line)}`).join('');
  }

  private get bodyRows(): number {
    return Math.max(1, this.size.rows - 1);
  }

  private rowsOf(line: number): { rows: Line[]; next?: number } {
    const { text, next } = this.lines.lineAt(line);
    let rows = this.wrapped.get(line);
    if (!rows) {
      rows = wrapLine(this.marked(sanitize(stripAnsi(text))), this.size.columns);
      // Only the rows around the screen are kept.
      if (this.wrapped.size > this.bodyRows * 4) this.wrapped.clear();
      this.wrapped.set(line, rows);
    }
    return { rows, next };
  }

  /** A line with the matches of the search marked. */
  private marked(text: string): Line {
    if (!this.pattern) return [{ text }];
    const line: Line = [];
    let at = 0;
    for (const found of text.matchAll(new RegExp(this.pattern.source, `${this.pattern.flags}g`))) {
      if (found[0] === '') break;
      if (found.index > at) line.push({ text: text.slice(at, found.index) });
      line.push({ text: found[0], style: MATCH });
      at = found.index + found[0].length;
    }
    if (at < text.length || line.length === 0) line.push({ text: text.slice(at) });
    return line;
  }

  /** The rows from the top of the screen down. */
  private bodyLines(): Line[] {
    const out: Line[] = [];
    let at: Position | undefined = this.top;
    while (at && out.length < this.bodyRows) {
      const { rows, next } = this.rowsOf(at.line);
      out.push(...rows.slice(at.row, at.row + this.bodyRows - out.length));
      at = next === undefined ? undefined : { line: next, row: 0 };
    }
    return out;
  }

  private footer(shown: number): Line {
    const { columns } = this.size;
    if (this.typing !== undefined)
      return truncateLine([{ text: `/${this.typing}`, style: { bold: true } }], columns);
    const where = before(this.top, this.lastTop()) ? `${this.percent(shown)}%` : '(end)';
    // The keys and where it is stay whole; the title (or a message) gets what is left.
    const right = ` ${where} · ${KEYS} `;
    const room = Math.max(0, columns - textWidth(right));
    const left = truncateText(` ${this.message ?? this.title}`, room);
    const text = left + ' '.repeat(Math.max(0, room - textWidth(left))) + right;
    return truncateLine([{ text, style: BAR }], columns);
  }

  /** How far through the text the bottom of the screen is, by bytes. */
  private percent(shown: number): number {
    if (this.lines.size === 0 || shown === 0) return 100;
    let at: Position | undefined = this.top;
    let rows = 0;
    let end = this.top.line;
    while (at && rows < this.bodyRows) {
      const { rows: wrapped, next } = this.rowsOf(at.line);
      rows += wrapped.length - at.row;
      end = next ?? this.lines.size;
      at = next === undefined ? undefined : { line: next, row: 0 };
    }
    return Math.min(100, Math.floor((end / this.lines.size) * 100));
  }

  private down(count: number): void {
    const last = this.lastTop();
    for (let i = 0; i < count && before(this.top, last); i++) {
      const { rows, next } = this.rowsOf(this.top.line);
      if (this.top.row + 1 < rows.length) this.top = { line: this.top.line, row: this.top.row + 1 };
      else if (next !== undefined) this.top = { line: next, row: 0 };
    }
  }

  private up(count: number): void {
    for (let i = 0; i < count; i++) {
      if (this.top.row > 0) {
        this.top = { line: this.top.line, row: this.top.row - 1 };
        continue;
      }
      const previous = this.lines.lineBefore(this.top.line);
      if (previous === undefined) return;
      this.top = { line: previous, row: this.rowsOf(previous).rows.length - 1 };
    }
  }

  /** The top of the screen that shows the last row at its bottom (or the start, when it all fits). */
  private lastTop(): Position {
    let line: number | undefined = this.lines.lastLine();
    let rows = 0;
    while (line !== undefined) {
      const count = this.rowsOf(line).rows.length;
      if (rows + count >= this.bodyRows) return { line, row: rows + count - this.bodyRows };
      rows += count;
      line = this.lines.lineBefore(line);
    }
    return { line: 0, row: 0 };
  }

  private typeSearch(input: string, name: string | undefined): void {
    const typed = this.typing ?? '';
    if (name === 'escape') this.typing = undefined;
    else if (name === 'backspace') this.typing = typed.slice(0, -1);
    else if (name === 'enter') {
      this.typing = undefined;
      this.pattern = typed ? searchPattern(typed) : this.pattern;
      this.wrapped.clear();
      this.findNext(false, true);
    } else if (name === undefined && input && !/[\x00-\x1f]/.test(input)) this.typing = typed + input;
  }

  /** Moves to the next (or previous) line with a match; `here` counts the top line too. */
  private findNext(backward: boolean, here = false): void {
    if (!this.pattern) {
      this.message = 'Type / and what to look for first';
      return;
    }
    const from = backward ? this.top.line : here ? this.top.line : this.lines.lineAt(this.top.line).next;
    const found = from === undefined ? undefined : this.lines.find(this.pattern, from, backward);
    if (found === undefined) this.message = `Not found: ${this.pattern.source.replace(/\\(.)/g, '$1')}`;
    else this.top = { line: found, row: 0 };
  }
}
