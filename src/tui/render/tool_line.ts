import { isAbsolute, relative } from 'node:path';
import { leavesFolder } from '../../util/inside_folder.js';
import { keyHint } from '../input/keybindings.js';
import type { ToolLine } from '../state/items.js';
import { diffLine } from './highlight.js';
import type { Line, Style } from './style.js';
import { callLabelOf, resultView } from './tool_facts.js';
import { sanitize, truncateLine } from './width.js';

const PREVIEW_LINES = 3;
const DIFF_PREVIEW_LINES = 8;
/** A running call's progress shows once it has run this long, so a quick call never flickers. */
export const PROGRESS_AFTER_MS = 1000;

function firstLine(text: string): string {
  const lines = text.split('\n');
  return lines.length > 1 ? `${lines[0]} …` : lines[0];
}

/**
 * A path as the user reads it: relative to the working folder when it lies inside it (models
 * often pass absolute paths), else as given.
 */
export function shownPath(path: string, cwd: string | undefined): string {
  if (!cwd || !isAbsolute(path)) return path;
  const rel = relative(cwd, path);
  if (rel === '') return '.';
  return leavesFolder(rel) ? path : rel;
}

/**
 * What a call does, in a few words, from its tool's declaration: `Read src/a.ts`, `Run npm test`,
 * `Search /TODO/ in src`. Paths inside `cwd` are shown relative to it.
 */
export function toolTitle(name: string, input: unknown, cwd?: string): { verb: string; detail: string } {
  const { verb, detail } = callLabelOf(name, input, (path) => shownPath(path, cwd));
  return { verb, detail };
}

export function formatElapsed(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  return `${minutes}m ${String(seconds).padStart(2, '0')}s`;
}

const ICONS: Record<ToolLine['status'], [string, Style]> = {
  pending: ['○', { color: 'muted' }],
  running: ['●', { color: 'warning' }],
  ok: ['✓', { color: 'success' }],
  error: ['✗', { color: 'error' }],
  cancelled: ['◌', { color: 'muted' }],
};

const BRANCH: Style = { color: 'muted' };

/** The mark a call of this status shows before its line. */
export const statusIcon = (status: ToolLine['status']): [string, Style] => ICONS[status];

/** The tool's line and its collapsed result; `now` drives the elapsed time of running calls. */
export function renderToolLine(tool: ToolLine, width: number, now = Date.now(), spinner?: string): Line[] {
  const [icon, iconStyle] = ICONS[tool.status];
  const { verb, detail } = toolTitle(tool.name, tool.input, tool.cwd);
  const elapsed =
    tool.elapsedMs !== undefined
      ? tool.elapsedMs
      : tool.status === 'running' && tool.startedAt !== undefined
        ? now - tool.startedAt
        : undefined;
  const head: Line = [
    { text: `${tool.status === 'running' && spinner ? spinner : icon} `, style: iconStyle },
    { text: verb, style: { bold: true } },
    { text: ` ${sanitize(detail)}` },
  ];
  if (elapsed !== undefined) head.push({ text: `  ${formatElapsed(elapsed)}`, style: { color: 'muted' } });
  const lines: Line[] = [truncateLine(head, width)];
  const body = tool.status === 'running' ? runningLines(tool, now) : resultPreview(tool);
  for (const [index, line] of body.entries()) {
    const branch = index === 0 ? '  └ ' : '    ';
    lines.push(truncateLine([{ text: branch, style: BRANCH }, ...line], width));
  }
  return lines;
}

/** What a running call shows under its line: a command's last lines, else what it waits for. */
function runningLines(tool: ToolLine, now: number): Line[] {
  if (tool.tail?.length) return tool.tail.map((t) => [{ text: t }]);
  const progress = shownProgress(tool, now);
  return progress ? [[{ text: progress, style: { color: 'muted' } }]] : [];
}

/** The running call's latest progress, once it has run `PROGRESS_AFTER_MS`; else undefined. */
export function shownProgress(tool: ToolLine, now: number): string | undefined {
  if (tool.status !== 'running' || tool.progress === undefined || tool.startedAt === undefined)
    return undefined;
  return now - tool.startedAt >= PROGRESS_AFTER_MS ? sanitize(tool.progress) : undefined;
}

/** A few lines of the result; the rest is counted (Ctrl-O prints it all). */
export function resultPreview(tool: ToolLine): Line[] {
  const text = (tool.resultText ?? '').replace(/\s+$/, '');
  if (tool.declined) return [[{ text: tool.declined, style: { color: 'muted' } }]];
  if (tool.status === 'cancelled')
    return [[{ text: text ? firstLine(text) : 'cancelled', style: { color: 'muted' } }]];
  if (!text) return [];
  const all = text.split('\n').map(sanitize);
  const ended = /^(Exit code|Stopped after|Interrupted|Ended by signal|Started in the background)/;
  const view = resultView(tool.name);
  if (view === 'tail' && (tool.status === 'ok' || ended.test(all.at(-1) ?? ''))) {
    // The end of a command's output says most: its last lines, then how it ended.
    const lines = all.filter((line) => line.trim() !== '');
    const status = ended.test(lines.at(-1) ?? '') ? lines.pop() : undefined;
    const tail = lines.slice(-2).map((t): Line => [{ text: t }]);
    if (status)
      tail.push([
        { text: status, style: { color: /^Exit code 0\b|^Started/.test(status) ? 'muted' : 'error' } },
      ]);
    return withMore(tail, lines.length - 2, 'above');
  }
  if (tool.status === 'error') {
    const lines = all.filter((line) => line.trim() !== '');
    return withMore(
      lines.slice(0, PREVIEW_LINES).map((t) => [{ text: t, style: { color: 'error' } }]),
      lines.length - PREVIEW_LINES,
    );
  }
  if (view === 'diff') {
    const start = all.findIndex((l) => l.startsWith('@@'));
    if (start >= 0) {
      // The diff was shown at the approval: the line says how much changed, not what again.
      const diff = all.slice(start).filter((l) => !l.startsWith('---') && !l.startsWith('+++'));
      const added = diff.filter((l) => l.startsWith('+')).length;
      const removed = diff.filter((l) => l.startsWith('-')).length;
      const summary: Line = [
        { text: `${all[0]} ` },
        { text: `+${added}`, style: { color: 'added' } },
        { text: ' ' },
        { text: `-${removed}`, style: { color: 'removed' } },
      ];
      if (tool.diffShown) return [summary];
      return withMore(
        [summary, ...diff.slice(0, DIFF_PREVIEW_LINES).map(diffLine)],
        diff.length - DIFF_PREVIEW_LINES,
      );
    }
    return [[{ text: all[0] }]];
  }
  if (view === 'lineCount')
    return [[{ text: `${all.length} line${all.length === 1 ? '' : 's'}`, style: { color: 'muted' } }]];
  return withMore(
    all.slice(0, PREVIEW_LINES).map((t) => [{ text: t }]),
    all.length - PREVIEW_LINES,
  );
}

function withMore(lines: Line[], hidden: number, where: 'above' | 'below' = 'below'): Line[] {
  if (hidden <= 0) return lines;
  const note: Line = [
    {
      text: `… ${hidden} more line${hidden === 1 ? '' : 's'} (${keyHint('expand')} to expand)`,
      style: { color: 'muted' },
    },
  ];
  return where === 'above' ? [note, ...lines] : [...lines, note];
}
