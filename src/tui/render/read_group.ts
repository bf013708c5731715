import { keyHint } from '../input/keybindings.js';
import type { ToolLine } from '../state/items.js';
import type { Line } from './style.js';
import { declaredTool } from './tool_facts.js';
import { formatElapsed, renderToolLine, shownProgress, statusIcon } from './tool_line.js';
import { truncateLine } from './width.js';

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * What a run of read-only calls did, in words: "Read 10 files, searched 2 patterns" (or, while
 * some still run, "Reading 10 files, searching 2 patterns").
 */
export function readsSummary(tools: ToolLine[]): string {
  const running = tools.some((t) => t.status === 'running' || t.status === 'pending');
  const searches = tools.filter((t) => declaredTool(t.name)?.kind === 'search').length;
  const reads = tools.length - searches;
  const parts = [
    reads > 0 ? `${running ? 'reading' : 'read'} ${counted(reads, 'file', 'files')}` : '',
    searches > 0 ? `${running ? 'searching' : 'searched'} ${counted(searches, 'pattern', 'patterns')}` : '',
  ].filter(Boolean);
  const text = parts.join(', ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The run's status: running while any runs, failed when any failed, else done. */
function groupStatus(tools: ToolLine[]): ToolLine['status'] {
  if (tools.some((t) => t.status === 'running' || t.status === 'pending')) return 'running';
  if (tools.some((t) => t.status === 'error')) return 'error';
  if (tools.every((t) => t.status === 'cancelled')) return 'cancelled';
  return 'ok';
}

/** One line for a run of read-only calls; opened (Ctrl+O), each call's own line under it. */
export function renderReadGroup(
  tools: ToolLine[],
  width: number,
  options: { open?: boolean; now?: number; spinner?: string } = {},
): Line[] {
  const { now = Date.now(), spinner, open } = options;
  const status = groupStatus(tools);
  const [icon, iconStyle] = statusIcon(status);
  const failed = tools.filter((t) => t.status === 'error').length;
  const starts = tools.flatMap((t) => (t.startedAt !== undefined ? [t.startedAt] : []));
  const ends = tools.flatMap((t) =>
    t.startedAt !== undefined && t.elapsedMs !== undefined ? [t.startedAt + t.elapsedMs] : [],
  );
  const first = Math.min(...starts);
  const elapsed = status === 'running' ? now - first : Math.max(...ends) - first;
  const head: Line = [
    { text: `${status === 'running' && spinner ? spinner : icon} `, style: iconStyle },
    { text: readsSummary(tools), style: { bold: true } },
  ];
  if (failed > 0) head.push({ text: ` (${failed} failed)`, style: { color: 'error' } });
  if (Number.isFinite(elapsed)) head.push({ text: `  ${formatElapsed(elapsed)}`, style: { color: 'muted' } });
  if (!open && status !== 'running')
    head.push({ text: `  ${keyHint('expand')} to expand`, style: { color: 'muted' } });
  const lines = [truncateLine(head, width)];
  // Closed, the run shows what one of its calls still waits for.
  const waiting = open ? undefined : tools.map((t) => shownProgress(t, now)).find(Boolean);
  if (waiting)
    lines.push(
      truncateLine(
        [
          { text: '  └ ', style: { color: 'muted' } },
          { text: waiting, style: { color: 'muted' } },
        ],
        width,
      ),
    );
  if (open)
    for (const tool of tools)
      lines.push(...renderToolLine(tool, width - 2).map((line): Line => [{ text: '  ' }, ...line]));
  return lines;
}
