import { highlightCode } from './highlight.js';
import { parseInline } from './inline.js';
import type { Line, Span, Style } from './style.js';
import { lineWidth, sanitize, textWidth, wrapLine } from './width.js';

/**
 * Markdown to terminal lines: headings, paragraphs, lists (with task boxes), quotes, rules,
 * tables and fenced code (highlighted). Line breaks inside a paragraph are kept — models write
 * for a terminal — and every line is wrapped to `width` here, so Ink never has to.
 */

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^`]*)$/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;
const LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

const GRAY: Style = { color: 'muted' };

export function renderMarkdown(source: string, width: number): Line[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const out: Line[] = [];
  const separate = () => {
    if (out.length > 0 && out[out.length - 1].length > 0) out.push([]);
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[2];
      const body: string[] = [];
      i++;
      while (i < lines.length && !isClosingFence(lines[i], marker)) body.push(lines[i++]);
      i++; // the closing fence (or the end of an unfinished block)
      out.push(...renderCode(body, fence[3], width));
      continue;
    }
    if (line.trim() === '') {
      separate();
      i++;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      separate();
      const level = heading[1].length;
      const style: Style = level === 1 ? { bold: true, underline: true } : { bold: true };
      out.push(...wrapLine(parseInline(heading[2], style), width));
      i++;
      continue;
    }
    if (RULE.test(line)) {
      out.push([{ text: '─'.repeat(Math.min(width, 60)), style: GRAY }]);
      i++;
      continue;
    }
    if (TABLE_ROW.test(line) && TABLE_RULE.test(lines[i + 1] ?? '')) {
      const rows = [line];
      i += 2;
      while (i < lines.length && TABLE_ROW.test(lines[i])) rows.push(lines[i++]);
      out.push(...renderTable(rows, width));
      continue;
    }
    const quote = QUOTE.exec(line);
    if (quote) {
      const prefix: Line = [{ text: '│ ', style: GRAY }];
      const inner = parseInline(sanitize(quote[1]), { italic: true });
      out.push(...wrapLine([...prefix, ...inner], width, prefix));
      i++;
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      out.push(...renderListItem(item[1], item[2], item[3], width));
      i++;
      continue;
    }
    const indent = /^\s*/.exec(line)![0];
    const indentLine: Line = indent ? [{ text: indent }] : [];
    out.push(...wrapLine(parseInline(sanitize(line)), width, indentLine));
    i++;
  }
  while (out.length > 0 && out[out.length - 1].length === 0) out.pop();
  return out;
}

function isClosingFence(line: string, marker: string): boolean {
  const trimmed = line.trim();
  return trimmed.startsWith(marker[0].repeat(marker.length)) && /^(`+|~+)$/.test(trimmed);
}

/** Code keeps its lines: long ones are broken, never re-flowed. */
export function renderCode(body: string[], language: string, width: number): Line[] {
  const room = Math.max(10, width - 2);
  const out: Line[] = [];
  for (const line of highlightCode(body.map(sanitize), language)) {
    const pad: Span = { text: '  ' };
    if (lineWidth(line) <= room) out.push([pad, ...line]);
    else for (const part of wrapLine(line, room)) out.push([pad, ...part]);
  }
  return out;
}

function renderListItem(indent: string, marker: string, text: string, width: number): Line[] {
  const depth = Math.floor(indent.replace(/\t/g, '  ').length / 2);
  const lead = '  '.repeat(depth);
  let bullet = /\d/.test(marker) ? `${marker} ` : depth % 2 === 0 ? '• ' : '◦ ';
  let body = text;
  const task = /^\[([ xX])\]\s+(.*)$/.exec(text);
  if (task) {
    bullet = task[1] === ' ' ? '☐ ' : '☑ ';
    body = task[2];
  }
  const head: Line = [{ text: lead }, { text: bullet, style: task ? undefined : GRAY }];
  const hanging: Line = [{ text: ' '.repeat(lead.length + textWidth(bullet)) }];
  const inline = parseInline(sanitize(body), task && task[1] !== ' ' ? { dim: true } : undefined);
  return wrapLine([...head, ...inline], width, hanging);
}

function cellsOf(row: string): string[] {
  const inner = row.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

function renderTable(rows: string[], width: number): Line[] {
  const cells = rows.map((row) => cellsOf(row).map((cell) => parseInline(sanitize(cell))));
  const columns = Math.max(...cells.map((row) => row.length));
  const widths = Array.from({ length: columns }, (_, c) =>
    Math.max(1, ...cells.map((row) => (row[c] ? lineWidth(row[c]) : 0))),
  );
  const total = widths.reduce((sum, w) => sum + w, 0) + 3 * (columns - 1);
  if (total > width) {
    // Too wide for the terminal: one row per line, cells separated, wrapped.
    return cells.flatMap((row, r) => {
      const line: Line = [];
      row.forEach((cell, c) => {
        if (c > 0) line.push({ text: ' · ', style: GRAY });
        line.push(...(r === 0 ? cell.map((s) => ({ ...s, style: { ...s.style, bold: true } })) : cell));
      });
      return wrapLine(line, width, [{ text: '  ' }]);
    });
  }
  const out: Line[] = [];
  cells.forEach((row, r) => {
    const line: Line = [];
    for (let c = 0; c < columns; c++) {
      if (c > 0) line.push({ text: ' │ ', style: GRAY });
      const cell = row[c] ?? [];
      const styled = r === 0 ? cell.map((s) => ({ ...s, style: { ...s.style, bold: true } })) : cell;
      line.push(...styled, { text: ' '.repeat(widths[c] - lineWidth(cell)) });
    }
    out.push(line);
    if (r === 0) out.push([{ text: widths.map((w) => '─'.repeat(w)).join('─┼─'), style: GRAY }]);
  });
  return out;
}
