import type { Line, Style } from '../render/style.js';
import type { TodoItem } from '../state/items.js';

const MARKS: Record<string, Style> = {
  '+': { color: 'added' },
  '-': { color: 'removed' },
  '~': { color: 'warning' },
};

/** A todo proposal (`+`/`-`/`~` lines against the current list) with its changes colored. */
export function todoProposalLines(body: string): Line[] {
  return body.split('\n').map((line) => {
    const style = MARKS[line[0]];
    return [{ text: '  ' }, style ? { text: line, style } : { text: line }];
  });
}

const BOXES: Record<TodoItem['status'], [string, Style]> = {
  pending: ['☐', {}],
  in_progress: ['▶', { color: 'warning', bold: true }],
  completed: ['☑', { color: 'muted' }],
};

/** The todo panel: done items first folded into a count, then the rest, at most `max` lines. */
export function todoPanelLines(items: TodoItem[], max: number): Line[] {
  const done = items.filter((item) => item.status === 'completed').length;
  const header: Line = [{ text: `Todo ${done}/${items.length}`, style: { bold: true } }];
  const open = items.filter((item) => item.status !== 'completed');
  const shown = open.slice(0, Math.max(1, max - 1));
  const lines: Line[] = [header];
  for (const item of shown) {
    const [box, style] = BOXES[item.status];
    lines.push([
      { text: `  ${box} `, style },
      { text: item.text, style: item.status === 'in_progress' ? { bold: true } : undefined },
    ]);
  }
  if (open.length > shown.length)
    lines.push([{ text: `  … ${open.length - shown.length} more`, style: { color: 'muted' } }]);
  return lines;
}
