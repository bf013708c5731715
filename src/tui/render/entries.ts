import type { TranscriptEntry } from '../state/items.js';
import { childSummaryLine } from './child_line.js';
import { renderDiffCard } from './diff_card.js';
import { renderExpanded } from './expanded.js';
import { renderMarkdown } from './markdown.js';
import { renderReadGroup } from './read_group.js';
import type { Line, Style } from './style.js';
import { renderToolLine } from './tool_line.js';
import { sanitize, textWidth, wrapLine } from './width.js';

/** Lines of command output printed for a `!command` at most; the rest is counted. */
const SHELL_LINES = 40;

const GRAY: Style = { color: 'muted' };

function prefixed(lines: Line[], first: Line, rest: Line): Line[] {
  return lines.map((line, i) => [...(i === 0 ? first : rest), ...line]);
}

function wrapText(text: string, width: number, style?: Style, first: Line = [], rest: Line = []): Line[] {
  return text
    .split('\n')
    .flatMap((line, i) =>
      wrapLine([...(i === 0 ? first : rest), { text: sanitize(line), style }], width, rest),
    );
}

/** A two-column row (a padded name, then what it does) wraps under its second column. */
function columnIndent(line: Line): Line {
  return line.length > 1 && /\s$/.test(line[0].text) ? [{ text: ' '.repeat(textWidth(line[0].text)) }] : [];
}

/** Blank lines above an entry: conversation turns breathe, tool lines stay together. */
export function spaceAbove(entry: TranscriptEntry): number {
  switch (entry.kind) {
    case 'user':
    case 'assistant':
    case 'result':
    case 'report':
    case 'plan':
    case 'phase':
    case 'question':
    case 'proposal':
    case 'shell':
    case 'panel':
    case 'expanded':
      return 1;
    default:
      return 0;
  }
}

type EntryOf<K extends TranscriptEntry['kind']> = Extract<TranscriptEntry, { kind: K }>;

/** A notice, marked by its tone. */
function renderNotice(entry: EntryOf<'notice'>, width: number): Line[] {
  const [mark, style]: [string, Style] =
    entry.tone === 'error'
      ? ['✗ ', { color: 'error' }]
      : entry.tone === 'warn'
        ? ['! ', { color: 'warning' }]
        : ['· ', GRAY];
  return wrapText(entry.text, width, style, [{ text: mark, style }], [{ text: '  ' }]);
}

/** A saved report: its title, a rule, its body without the title heading, and where it is. */
function renderReport(entry: EntryOf<'report'>, width: number): Line[] {
  return [
    [{ text: `Report: ${entry.title}`, style: { bold: true, color: 'accent' } }],
    [{ text: '─'.repeat(Math.min(width, 60)), style: GRAY }],
    ...renderMarkdown(entry.markdown.replace(/^# .*\n+/, ''), width),
    [{ text: `saved to ${entry.path}`, style: GRAY }],
  ];
}

export function renderEntry(entry: TranscriptEntry, width: number): Line[] {
  switch (entry.kind) {
    case 'user':
      return wrapText(
        entry.text,
        width,
        entry.queued ? { italic: true } : { bold: true },
        [{ text: '› ', style: GRAY }],
        [{ text: '  ' }],
      );
    case 'assistant':
      return renderMarkdown(entry.markdown, width);
    case 'result':
      return prefixed(
        renderMarkdown(entry.markdown, width - 2),
        [{ text: '✔ ', style: { color: 'success' } }],
        [{ text: '  ' }],
      );
    case 'tool':
      return renderToolLine(entry.tool, width);
    case 'reads':
      return renderReadGroup(entry.tools, width, { open: entry.open });
    case 'notice':
      return renderNotice(entry, width);
    case 'working':
      return wrapText(
        entry.text,
        width,
        { color: 'muted', italic: true },
        [{ text: '◦ ', style: GRAY }],
        [{ text: '  ' }],
      );
    case 'report':
      return renderReport(entry, width);
    case 'plan': {
      const bar: Line = [{ text: '│ ', style: { color: 'accent' } }];
      return [
        [{ text: 'Plan', style: { bold: true, color: 'accent' } }],
        ...prefixed(renderMarkdown(entry.markdown, width - 2), bar, bar),
      ];
    }
    case 'phase':
      return [
        [
          { text: '◆ ', style: { color: 'accent' } },
          { text: `Phase done: ${entry.phase}`, style: { bold: true } },
        ],
        ...prefixed(renderMarkdown(entry.markdown, width - 2), [{ text: '  ' }], [{ text: '  ' }]),
      ];
    case 'question':
      return [
        ...wrapText(
          entry.question,
          width,
          { bold: true },
          [{ text: '? ', style: { color: 'warning' } }],
          [{ text: '  ' }],
        ),
        ...wrapText(entry.answer, width, undefined, [{ text: '  › ', style: GRAY }], [{ text: '    ' }]),
      ];
    case 'proposal':
      return [
        [{ text: entry.title, style: { bold: true } }],
        ...(entry.diff ? renderDiffCard(entry.diff, width) : []),
        ...entry.lines.flatMap((line) => wrapLine(line, width)),
      ];
    case 'shell':
      return renderShell(entry, width);
    case 'panel':
      return [
        ...(entry.title ? [[{ text: entry.title, style: { bold: true } }]] : []),
        ...entry.lines.flatMap((line) => wrapLine(line, width, columnIndent(line))),
      ];
    case 'child':
      return [childSummaryLine(entry.child, width)];
    case 'expanded':
      return renderExpanded(entry, width);
  }
}

/** A `!command`: its line, the end of its output (or that it printed nothing), how it exited. */
function renderShell(entry: Extract<TranscriptEntry, { kind: 'shell' }>, width: number): Line[] {
  const lines = entry.output.replace(/\s+$/, '').split('\n');
  const shown = lines.slice(-SHELL_LINES);
  const out: Line[] = [
    [
      { text: '! ', style: { color: 'shell' } },
      { text: entry.command, style: { bold: true } },
    ],
  ];
  if (lines.length > shown.length)
    out.push([{ text: `  … ${lines.length - shown.length} lines above`, style: GRAY }]);
  if (entry.output.trim())
    out.push(...shown.flatMap((l) => wrapLine([{ text: `  ${sanitize(l)}` }], width, [{ text: '  ' }])));
  else out.push([{ text: '  (no output)', style: GRAY }]);
  if (entry.exitCode !== 0)
    out.push([{ text: `  exit code ${entry.exitCode ?? 'none (killed)'}`, style: { color: 'error' } }]);
  return out;
}
