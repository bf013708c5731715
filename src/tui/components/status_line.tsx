import { memo } from 'react';
import { formatTokens } from '../render/counts.js';
import type { Line, Style } from '../render/style.js';
import { formatElapsed } from '../render/tool_line.js';
import { lineWidth, truncateLine } from '../render/width.js';
import type { Snapshot, StatusInfo } from '../state/store.js';
import { LinesView } from './lines_view.js';
import { spinnerFrame, useNow } from './use_terminal.js';

const GRAY: Style = { color: 'muted' };

/** Mode, model, profile, context used against the window, and cost — cut to the width. */
export function statusLine(status: StatusInfo, width: number, hint?: string): Line {
  const mode: Line =
    status.mode === 'plan'
      ? [{ text: ' PLAN ', style: { inverse: true, color: 'planMode', bold: true } }]
      : status.autoEdits
        ? [
            { text: ' ACT ', style: { inverse: true, color: 'autoEdits', bold: true } },
            { text: ' edits approved', style: { color: 'autoEdits' } },
          ]
        : [{ text: ' ACT ', style: { inverse: true, bold: true } }];
  const context = status.contextWindow
    ? `${formatTokens(status.contextTokens)}/${formatTokens(status.contextWindow)} (${Math.round((100 * status.contextTokens) / status.contextWindow)}%)`
    : `${formatTokens(status.contextTokens)} tokens`;
  const parts = status.starting
    ? [...(status.model ? [status.model] : []), 'starting…']
    : [status.model ?? 'no model', status.profile, ...(status.brief ? ['brief'] : []), context];
  if (status.costUsd !== undefined) parts.push(`$${status.costUsd.toFixed(status.costUsd < 1 ? 3 : 2)}`);
  const line: Line = [...mode, { text: `  ${parts.join(' · ')}`, style: GRAY }];
  const right = hint ?? 'shift+tab mode · /help';
  const gap = width - lineWidth(line) - right.length - 1;
  if (gap >= 2) line.push({ text: `${' '.repeat(gap)}${right}`, style: hint ? { color: 'warning' } : GRAY });
  else if (hint) return truncateLine([{ text: hint, style: { color: 'warning' } }], width);
  return truncateLine(line, width);
}

export const StatusLine = memo(function StatusLine({
  status,
  hint,
  width,
}: {
  status: StatusInfo;
  hint?: string;
  width: number;
}) {
  return <LinesView lines={[statusLine(status, width, hint)]} />;
});

/** "⠙ Thinking… 12.3s · esc to interrupt", with queued messages under it. */
export const BusyLine = memo(function BusyLine({
  busy,
  queued,
  width,
}: {
  busy: Snapshot['busy'];
  queued: string[];
  width: number;
}) {
  const now = useNow(100, busy !== undefined);
  const lines: Line[] = [];
  if (busy) {
    lines.push(
      truncateLine(
        [
          { text: `${spinnerFrame(now)} `, style: { color: 'accent' } },
          { text: `${busy.label}…`, style: { bold: true } },
          { text: ` ${formatElapsed(now - busy.since)} · esc to interrupt`, style: GRAY },
        ],
        width,
      ),
    );
  }
  for (const message of queued.slice(-3))
    lines.push(
      truncateLine(
        [
          { text: '↳ queued: ', style: GRAY },
          { text: message.replace(/\s+/g, ' '), style: { italic: true } },
        ],
        width,
      ),
    );
  if (queued.length > 3) lines.push([{ text: `  … ${queued.length - 3} more queued`, style: GRAY }]);
  return <LinesView lines={lines} />;
});
