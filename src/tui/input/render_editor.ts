import type { Line, Style } from '../render/style.js';
import { charWidth } from '../render/width.js';
import type { EditorState } from './editor.js';

const CURSOR: Style = { inverse: true };
const PLACEHOLDER: Style = { color: 'muted' };

interface Options {
  /** First-line prefix, e.g. `› `; continuation lines are indented to match. */
  prefix: string;
  prefixStyle?: Style;
  placeholder?: string;
  /** Lines shown at most; a window around the cursor. */
  maxLines: number;
  cursor: boolean;
}

/**
 * The prompt as lines: hard-wrapped at the width (so the cursor's place is known exactly), the
 * cursor drawn in inverse video, placeholders of folded pastes dimmed.
 */
export function renderEditor(state: EditorState, width: number, options: Options): Line[] {
  const lead = options.prefix;
  const indent = ' '.repeat(lead.length);
  const room = Math.max(4, width - lead.length - 1);
  if (state.text === '' && options.placeholder) {
    const first: Line = [{ text: lead, style: options.prefixStyle }];
    if (options.cursor)
      first.push({ text: options.placeholder[0] ?? ' ', style: { ...PLACEHOLDER, inverse: true } });
    first.push({ text: options.placeholder.slice(options.cursor ? 1 : 0), style: PLACEHOLDER });
    return [first];
  }
  const rows: Array<{ text: string; start: number }> = [];
  let offset = 0;
  for (const logical of state.text.split('\n')) {
    let row = '';
    let rowStart = offset;
    let used = 0;
    for (const ch of logical) {
      const w = charWidth(ch.codePointAt(0) ?? 0);
      if (used + w > room) {
        rows.push({ text: row, start: rowStart });
        rowStart += row.length;
        row = '';
        used = 0;
      }
      row += ch;
      used += w;
    }
    rows.push({ text: row, start: rowStart });
    offset += logical.length + 1;
  }
  // The row holding the cursor: the last row that starts at or before it.
  let cursorRow = 0;
  for (let r = 0; r < rows.length; r++) if (rows[r].start <= state.cursor) cursorRow = r;
  const first = Math.max(0, Math.min(cursorRow - options.maxLines + 1, rows.length - options.maxLines));
  const shown = rows.slice(first, first + options.maxLines);
  return shown.map((row, i) => {
    const r = first + i;
    const line: Line = [{ text: r === 0 ? lead : indent, style: r === 0 ? options.prefixStyle : undefined }];
    const at = state.cursor - row.start;
    if (!options.cursor || r !== cursorRow) {
      pushText(line, row.text);
      return line;
    }
    pushText(line, row.text.slice(0, at));
    const under = row.text.slice(at, at + (row.text.codePointAt(at)! > 0xffff ? 2 : 1));
    line.push({ text: under || ' ', style: CURSOR });
    pushText(line, row.text.slice(at + under.length));
    return line;
  });
}

/** Text with paste placeholders dimmed. */
function pushText(line: Line, text: string): void {
  let last = 0;
  for (const match of text.matchAll(/\[Pasted text #\d+(?: \+\d+ lines)?\]/g)) {
    if (match.index > last) line.push({ text: text.slice(last, match.index) });
    line.push({ text: match[0], style: PLACEHOLDER });
    last = match.index + match[0].length;
  }
  if (last < text.length) line.push({ text: text.slice(last) });
}
