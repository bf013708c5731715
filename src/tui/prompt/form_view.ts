import type { ElicitedField } from '../../mcp/elicitation.js';
import { renderEditor } from '../input/render_editor.js';
import type { Line, Span, Style } from '../render/style.js';
import { sanitize, truncateLine, wrapLine } from '../render/width.js';
import { type FieldInput, FORM_BUTTONS, type FormPrompt, type FormUi, fieldHint } from './form_fields.js';

const GRAY: Style = { color: 'muted' };
const FOCUS: Style = { color: 'warning' };
/** Values sit under their field's label, indented this much. */
const INDENT = '    ';

/** A server's form as lines: its message, one block per field, the buttons and the keys. */
export function formLines(prompt: FormPrompt, ui: FormUi, width: number): Line[] {
  const lines: Line[] = [
    ...wrapLine(
      [{ text: `MCP server "${prompt.server}" asks`, style: { bold: true, color: 'warning' } }],
      width,
    ),
    // The server's words are its own: no control characters reach the terminal.
    ...prompt.message.split('\n').flatMap((line) => wrapLine([{ text: sanitize(line) }], width)),
  ];
  prompt.fields.forEach((field, i) => {
    const focused = ui.focus === i;
    lines.push(...labelLines(field, focused, width));
    lines.push(...valueLines(ui.inputs[i], focused, width));
    const error = ui.errors[i];
    if (error) lines.push(...wrapLine([{ text: `${INDENT}! ${error}`, style: { color: 'error' } }], width));
  });
  lines.push(buttonRow(ui, prompt.fields.length, width));
  lines.push(
    ...wrapLine([{ text: 'Tab/↑↓ to move · Enter to submit · Esc to decline', style: GRAY }], width),
  );
  return lines;
}

/** `› Workers *  a whole number, 1 to 8`: the marker on the focused field, a star on required ones. */
function labelLines(field: ElicitedField, focused: boolean, width: number): Line[] {
  const notes = sanitize([field.description, fieldHint(field)].filter(Boolean).join(' · '));
  const line: Line = [
    { text: focused ? '› ' : '  ', style: FOCUS },
    { text: sanitize(field.title ?? field.name), style: focused ? { bold: true } : undefined },
    ...(field.required ? [{ text: ' *', style: FOCUS }] : []),
    ...(notes ? [{ text: `  ${notes}`, style: GRAY }] : []),
  ];
  return wrapLine(line, width, [{ text: INDENT }]);
}

function valueLines(input: FieldInput, focused: boolean, width: number): Line[] {
  switch (input.kind) {
    case 'text':
      return renderEditor(input.editor, width, {
        prefix: INDENT,
        maxLines: 3,
        cursor: focused,
        ...(input.editor.text === '' && !focused ? { placeholder: '(empty)' } : {}),
      });
    case 'flag':
      return [[{ text: INDENT }, ...marks(['yes', 'no'], (i) => (i === 0) === input.on)]];
    case 'choice':
      return wrapLine([{ text: INDENT }, ...marks(input.options, (i) => i === input.index)], width, [
        { text: INDENT },
      ]);
    case 'choices':
      return wrapLine(
        [
          { text: INDENT },
          ...marks(input.options, (i) => input.ticked[i], focused ? input.cursor : -1, true),
        ],
        width,
        [{ text: INDENT }],
      );
  }
}

/** Options with their marks: `● green` chosen, `○ red` not (`[x]`/`[ ]` for a multi-select). */
function marks(options: string[], chosen: (i: number) => boolean, cursor = -1, ticks = false): Span[] {
  return options.flatMap((option, i) => {
    const on = chosen(i);
    const mark = ticks ? (on ? '[x]' : '[ ]') : on ? '●' : '○';
    const style: Style | undefined = i === cursor ? { underline: true } : on ? { bold: true } : undefined;
    return [
      ...(i > 0 ? [{ text: '  ' }] : []),
      { text: `${mark} `, style: on ? { color: 'success' } : GRAY },
      { text: sanitize(option), ...(style ? { style } : {}) },
    ];
  });
}

/** `› [Submit]  Decline  Cancel`: the chosen button in brackets while the row has the cursor. */
function buttonRow(ui: FormUi, row: number, width: number): Line {
  const focused = ui.focus === row;
  const line: Line = [{ text: focused ? '› ' : '  ', style: FOCUS }];
  FORM_BUTTONS.forEach((name, i) => {
    const chosen = focused && i === ui.button;
    line.push({ text: chosen ? `[${name}]` : ` ${name} `, style: chosen ? { bold: true } : GRAY });
    line.push({ text: ' ' });
  });
  return truncateLine(line, width);
}
