import { keyHint } from '../input/keybindings.js';
import type { TranscriptEntry } from '../state/items.js';
import type { Line, Style } from './style.js';
import { sanitize, wrapLine } from './width.js';

/** Lines an expanded result prints at most; the viewer shows the rest. */
const EXPANDED_LINES = 400;

const GRAY: Style = { color: 'muted' };

/**
 * A result printed in full (Ctrl+O), up to a screenful of screens. What it leaves out (more
 * lines, or the rest of a result saved to a file) is one line naming the key that opens it all.
 */
export function renderExpanded(entry: Extract<TranscriptEntry, { kind: 'expanded' }>, width: number): Line[] {
  const lines = entry.text.split('\n');
  const out: Line[] = [[{ text: entry.title, style: { bold: true } }]];
  for (const line of lines.slice(0, EXPANDED_LINES))
    out.push(...wrapLine([{ text: `  ${sanitize(line)}` }], width, [{ text: '  ' }]));
  const view = ` (${keyHint('viewResult')} to view it all)`;
  const more = lines.length - EXPANDED_LINES;
  if (more > 0) out.push([{ text: `  … ${more} more line${more === 1 ? '' : 's'}${view}`, style: GRAY }]);
  if (entry.savedPath) {
    const whole = `  the whole result: ${entry.savedPath}${more > 0 ? '' : view}`;
    out.push(...wrapLine([{ text: whole, style: GRAY }], width, [{ text: '  ' }]));
  }
  return out;
}
