import type { ChildStatus, ChildStep, ChildView } from '../state/items.js';
import { formatTokens } from './counts.js';
import type { Line, Style } from './style.js';
import { formatElapsed } from './tool_line.js';
import { sanitize, truncateLine } from './width.js';

const GRAY: Style = { color: 'muted' };

/** Children of a child are indented under it. */
const indent = (child: ChildView) => '  '.repeat(Math.max(0, child.depth - 1));

const ENDED: Record<Exclude<ChildStatus, 'running'>, [string, Style, string]> = {
  completed: ['✓', { color: 'success' }, 'completed'],
  failed: ['✗', { color: 'error' }, 'failed'],
  budget_exhausted: ['!', { color: 'warning' }, 'budget exhausted'],
  interrupted: ['◌', { color: 'muted' }, 'interrupted'],
};

function counts(child: ChildView, ms: number): string {
  const calls = `${child.toolCalls} tool call${child.toolCalls === 1 ? '' : 's'}`;
  return `${calls} · ${formatTokens(child.tokens)} tokens · ${formatElapsed(ms)}`;
}

const who = (child: ChildView): Line => [
  { text: child.name, style: { bold: true } },
  { text: ` (${child.type})`, style: GRAY },
];

/** A running child in one line: its name and type, what it spent so far, and what it is doing. */
export function runningChildLine(child: ChildView, width: number, now: number, spinner: string): Line {
  const line: Line = [
    { text: `${indent(child)}${spinner} `, style: { color: 'accent' } },
    ...who(child),
    { text: ` · ${counts(child, now - child.startedAt)}`, style: GRAY },
  ];
  if (child.doing) line.push({ text: ` · ${sanitize(child.doing)}` });
  return truncateLine(line, width);
}

/** An ended child in one line: how it ended and what it spent. */
export function childSummaryLine(child: ChildView, width: number): Line {
  const [mark, style, words] = ENDED[child.status === 'running' ? 'interrupted' : child.status];
  return truncateLine(
    [
      { text: `${indent(child)}${mark} `, style },
      ...who(child),
      { text: ` · ${words}`, style },
      { text: ` · ${counts(child, child.elapsedMs ?? 0)}`, style: GRAY },
    ],
    width,
  );
}

const STEP_MARKS: Record<'running' | 'ok' | 'error', [string, Style]> = {
  running: ['●', { color: 'warning' }],
  ok: ['✓', { color: 'success' }],
  error: ['✗', { color: 'error' }],
};

function stepLine(child: ChildView, step: ChildStep, width: number): Line {
  const pad = `${indent(child)}    `;
  if (step.kind === 'text')
    return truncateLine(
      [{ text: `${pad}“${sanitize(step.text.replace(/\s+/g, ' '))}”`, style: { ...GRAY, italic: true } }],
      width,
    );
  const [mark, style] = STEP_MARKS[step.status];
  const line: Line = [{ text: `${pad}${mark} `, style }, { text: sanitize(step.label) }];
  if (step.result) line.push({ text: ` — ${sanitize(step.result)}`, style: GRAY });
  return truncateLine(line, width);
}

/** Children shown at most, and steps under each when open: the panel stays a few lines tall. */
const SHOWN_CHILDREN = 6;
const OPEN_STEPS = 3;

/**
 * The panel of running children: a line each (at most a few, the rest counted) and, when open
 * (Ctrl+T), each one's latest steps under it.
 */
export function childPanelLines(
  children: readonly ChildView[],
  open: boolean,
  width: number,
  now: number,
  spinner: string,
): Line[] {
  const lines: Line[] = [];
  for (const child of children.slice(0, SHOWN_CHILDREN)) {
    lines.push(runningChildLine(child, width, now, spinner));
    if (open) for (const step of child.steps.slice(-OPEN_STEPS)) lines.push(stepLine(child, step, width));
  }
  const more = children.length - SHOWN_CHILDREN;
  if (more > 0) lines.push([{ text: `  … ${more} more agent${more === 1 ? '' : 's'} running`, style: GRAY }]);
  return lines;
}

/** A child's run as text, for Ctrl-O: what it was asked, each step, and how it ended. */
export function childTranscript(child: ChildView): { title: string; text: string } {
  const [, , words] = ENDED[child.status === 'running' ? 'interrupted' : child.status];
  const lines: string[] = [];
  if (child.prompt) lines.push(`› ${child.prompt}`, '');
  for (const step of child.steps) {
    if (step.kind === 'text') lines.push(step.text, '');
    else lines.push(`${STEP_MARKS[step.status][0]} ${step.label}${step.result ? ` — ${step.result}` : ''}`);
  }
  if (child.finalText) lines.push('', `${words}: ${child.finalText}`);
  return {
    title: `Agent ${child.name} (${child.type}): ${words} · ${counts(child, child.elapsedMs ?? 0)}`,
    text: lines
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
  };
}
