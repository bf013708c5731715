import { memo, useSyncExternalStore } from 'react';
import { renderEntry } from '../render/entries.js';
import { grammarsLoaded, onGrammarLoaded } from '../render/highlight.js';
import { renderMarkdown } from '../render/markdown.js';
import { renderReadGroup } from '../render/read_group.js';
import type { Line } from '../render/style.js';
import { formatElapsed, renderToolLine } from '../render/tool_line.js';
import { truncateLine } from '../render/width.js';
import type { LiveEntry } from '../state/items.js';
import { readRun } from '../state/read_runs.js';
import { LinesView } from './lines_view.js';
import { spinnerFrame, useNow } from './use_terminal.js';

/** The end of a block being written, with its code fence re-opened when the cut removed it. */
export function streamTail(text: string, fence: string | undefined, maxLines: number): string {
  let cut = text.length;
  for (let n = 0; n < maxLines && cut > 0; n++) cut = text.lastIndexOf('\n', cut - 1);
  if (cut <= 0) return text;
  const tail = text.slice(cut + 1);
  return fence ? `${fence}\n${tail}` : tail;
}

function entryLines(entry: LiveEntry, width: number, maxLines: number, now: number): Line[] {
  switch (entry.kind) {
    case 'stream':
      return renderMarkdown(streamTail(entry.text, entry.fence, maxLines), width);
    case 'tool':
      return renderToolLine(entry.tool, width, now, spinnerFrame(now));
    case 'shell': {
      const head: Line = [
        { text: `${spinnerFrame(now)} `, style: { color: 'shell' } },
        { text: `! ${entry.command}`, style: { bold: true } },
        { text: `  ${formatElapsed(now - entry.startedAt)} · esc to stop`, style: { color: 'muted' } },
      ];
      return [
        truncateLine(head, width),
        ...entry.tail.map((t) => truncateLine([{ text: `    ${t}`, style: { color: 'muted' } }], width)),
      ];
    }
    case 'done':
      return renderEntry(entry.entry, width);
  }
}

/**
 * What is still changing: the reply being written, running tools with their elapsed time and
 * output tail. It never grows past `maxLines` — a taller live area would make Ink clear the whole
 * screen on every frame — so only its end is shown; finished parts go to the scrollback.
 */
export const LiveArea = memo(function LiveArea({
  live,
  width,
  maxLines,
}: {
  live: LiveEntry[];
  width: number;
  maxLines: number;
}) {
  const ticking = live.some((e) => e.kind === 'shell' || (e.kind === 'tool' && e.tool.status === 'running'));
  const now = useNow(100, ticking);
  // A code block is drawn plain until its grammar loads; then the live area draws again.
  useSyncExternalStore(onGrammarLoaded, grammarsLoaded);
  if (live.length === 0) return null;
  let lines: Line[] = [];
  for (let i = 0; i < live.length; i++) {
    const run = readRun(live, i);
    if (run.length > 1) {
      lines.push(...renderReadGroup(run, width, { now, spinner: spinnerFrame(now) }));
      i += run.length - 1;
    } else lines.push(...entryLines(live[i], width, maxLines, now));
  }
  if (lines.length > maxLines) {
    const hidden = lines.length - maxLines + 1;
    lines = [
      [{ text: `… ${hidden} more line${hidden === 1 ? '' : 's'} above`, style: { color: 'muted' } }],
      ...lines.slice(-(maxLines - 1)),
    ];
  }
  return <LinesView lines={lines} />;
});
