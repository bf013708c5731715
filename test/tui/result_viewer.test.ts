import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Key } from 'ink';
import { beforeAll, describe, expect, it } from 'vitest';
import { stripAnsi } from '../../src/tui/render/style.js';
import { ResultViewer } from '../../src/tui/viewer/result_viewer.js';
import {
  type ByteSource,
  fileSource,
  MAX_LINE_BYTES,
  TextLines,
  textSource,
} from '../../src/tui/viewer/text_lines.js';
import { tempDir } from '../support/runtime_fixtures.js';

const key = (flags: Partial<Key> = {}): Key => ({ ...({} as Key), ...flags });
const SIZE = { columns: 60, rows: 12 };

/** A source that counts the bytes read from it. */
function counted(source: ByteSource): ByteSource & { readBytes: number } {
  const wrapper = {
    readBytes: 0,
    size: source.size,
    read(start: number, length: number) {
      const bytes = source.read(start, length);
      wrapper.readBytes += bytes.length;
      return bytes;
    },
    close: () => source.close(),
  };
  return wrapper;
}

/** The viewer's screen as text rows: the body, then the footer. */
function rows(viewer: ResultViewer): string[] {
  const frame = viewer.frame();
  return frame
    .split(/\x1b\[\d+;1H\x1b\[2K/)
    .slice(1)
    .map((row) => stripAnsi(row));
}

/** A 50 MB file of numbered lines, written a megabyte at a time. */
function bigFile(): { path: string; lines: number } {
  const path = join(tempDir('lathe-viewer-'), 'out.log');
  const fd = openSync(path, 'w');
  let n = 0;
  let written = 0;
  while (written < 50 * 1024 * 1024) {
    let chunk = '';
    while (chunk.length < 1024 * 1024) chunk += `output line ${++n} ${'x'.repeat(40)}\n`;
    written += writeSync(fd, chunk);
  }
  closeSync(fd);
  return { path, lines: n };
}

describe('the result viewer on a 50 MB output', () => {
  let big: { path: string; lines: number };
  beforeAll(() => {
    big = bigFile();
  });

  it('shows its end after reading a few screens of it, not the file', () => {
    const { path, lines } = big;
    const source = counted(fileSource(path));
    const viewer = new ResultViewer(new TextLines(source), 'Run big', SIZE);
    expect(rows(viewer)[0]).toMatch(/^output line 1 x+$/);
    viewer.key('', key({ end: true }));
    const end = rows(viewer);
    expect(end.at(-2)).toContain(`output line ${lines} `);
    expect(end.at(-1)).toContain('(end)');
    viewer.key('', key({ pageUp: true }));
    expect(rows(viewer).some((row) => row.startsWith(`output line ${lines - 10} `))).toBe(true);
    // Opening, going to the end and a page back read kilobytes, of 50 megabytes.
    expect(source.readBytes).toBeLessThan(2 * 1024 * 1024);
    source.close();
  });

  it('finds a line near its end, reading it a megabyte at a time', () => {
    const { path, lines } = big;
    const viewer = new ResultViewer(new TextLines(fileSource(path)), 'Run big', SIZE);
    viewer.key(`/output line ${lines - 3} `, key());
    viewer.key('\r', key({ return: true }));
    expect(rows(viewer)[0]).toContain(`output line ${lines - 3} `);
  });
});

describe('the result viewer', () => {
  it('wraps long lines and shows a line without breaks in pieces, each character whole', () => {
    const long = 'é'.repeat(MAX_LINE_BYTES);
    const lines = new TextLines(textSource(`short\n${long}\nlast`));
    const first = lines.lineAt(0);
    expect(first).toEqual({ text: 'short', next: 6 });
    const piece = lines.lineAt(6);
    // Two bytes a character: a piece ends on a character's end, never in the middle of one.
    expect(piece.text).toBe('é'.repeat(MAX_LINE_BYTES / 2));
    const rest = lines.lineAt(piece.next!);
    expect(rest.text).toBe('é'.repeat(MAX_LINE_BYTES / 2));
    expect(lines.lineAt(rest.next!)).toEqual({ text: 'last' });
    expect(lines.lineBefore(rest.next!)).toBeDefined();
    const viewer = new ResultViewer(lines, 'Read long', SIZE);
    expect(rows(viewer).slice(1, 3)).toEqual(['é'.repeat(60), 'é'.repeat(60)]);
  });

  it('closes on q and on Esc, and takes an empty result', () => {
    const viewer = new ResultViewer(new TextLines(textSource('')), 'Run nothing', SIZE);
    expect(rows(viewer).at(-1)).toContain('(end)');
    expect(viewer.key('q', key())).toBe(false);
    expect(viewer.key('', key({ escape: true }))).toBe(false);
  });

  it('reads a text kept in memory as it reads a file, colour codes and carriage returns dropped', () => {
    const path = join(tempDir('lathe-viewer-'), 'colors.txt');
    writeFileSync(path, '\x1b[31mred\x1b[0m\r\nplain\r\n');
    const viewer = new ResultViewer(new TextLines(fileSource(path)), 'Run colors', SIZE);
    expect(rows(viewer).slice(0, 2)).toEqual(['red', 'plain']);
  });
});
