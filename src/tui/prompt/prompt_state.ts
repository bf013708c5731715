import type { Key } from 'ink';
import { type EditorState, emptyEditor } from '../input/editor.js';
import type { EditorAction } from '../input/keys.js';
import { renderEditor } from '../input/render_editor.js';
import { type Line, STYLES } from '../render/style.js';
import { lineWidth, truncateLine, wrapLine } from '../render/width.js';
import type { Prompt } from '../state/prompts.js';
import { type FormUi, initialForm } from './form_fields.js';
import { formKey } from './form_state.js';
import { formLines } from './form_view.js';
import { answer, type MenuOption, optionsFor, primaryOptions, promptTitle, startsWithText } from './menus.js';
import { typeInto } from './typing.js';

/** Where the user is in a prompt: choosing, typing words, or checking a rule before it is saved. */
export interface PromptUi {
  promptId: number;
  selected: number;
  stage: 'choose' | 'text' | 'save';
  editor: EditorState;
  option?: MenuOption;
  /** A server's form: its fields as filled in so far. */
  form?: FormUi;
}

export function initialUi(prompt: Prompt): PromptUi {
  if (prompt.kind === 'form')
    return {
      promptId: prompt.id,
      selected: 0,
      stage: 'choose',
      editor: emptyEditor(),
      form: initialForm(prompt),
    };
  const options = optionsFor(prompt);
  const text = startsWithText(prompt);
  return {
    promptId: prompt.id,
    selected: 0,
    stage: text ? 'text' : 'choose',
    editor: emptyEditor(),
    option: text ? options[options.length - 1] : undefined,
  };
}

/**
 * Handles one key press; answering resolves the prompt. Returns the next state, and whether
 * the key (Esc) asks to interrupt the run: a question left unanswered stops the step.
 */
export function promptKey(
  prompt: Prompt,
  ui: PromptUi,
  input: string,
  key: Key,
  actions: EditorAction[],
): PromptUi & { interrupt?: boolean } {
  if (prompt.kind === 'form')
    return { ...ui, form: formKey(prompt, ui.form ?? initialForm(prompt), input, key, actions) };
  const options = optionsFor(prompt);
  if (ui.stage === 'text') {
    if (key.escape) return startsWithText(prompt) ? { ...ui, interrupt: true } : { ...ui, stage: 'choose' };
    const typed = typeInto(ui.editor, actions);
    if (typed.submitted) {
      answer(prompt, ui.option!, typed.editor.text);
      return ui;
    }
    return { ...ui, editor: typed.editor };
  }
  if (ui.stage === 'save') {
    if (key.escape) return { ...ui, stage: 'choose' };
    if (key.return) answer(prompt, ui.option!);
    return ui;
  }
  if (key.escape) {
    if (prompt.kind !== 'pick') return { ...ui, interrupt: true };
    prompt.resolve(undefined);
    return ui;
  }
  const numbered = primaryOptions(options);
  if (key.upArrow) return { ...ui, selected: (ui.selected + numbered.length - 1) % numbered.length };
  if (key.downArrow || (key.tab && !key.shift))
    return { ...ui, selected: (ui.selected + 1) % numbered.length };
  let chosen: MenuOption | undefined;
  if (key.return) chosen = numbered[ui.selected];
  else if (/^[1-9]$/.test(input) && Number(input) <= numbered.length) chosen = numbered[Number(input) - 1];
  else if (options.some((o) => o.key === input)) chosen = options.find((o) => o.key === input);
  else if (prompt.kind === 'approval' && (input === 'y' || input === 'n'))
    chosen = options.find((o) => o.value === (input === 'y' ? 'yes' : 'no'));
  if (!chosen) return ui;
  if (chosen.text) return { ...ui, stage: 'text', option: chosen, editor: emptyEditor() };
  if (prompt.kind === 'approval' && (chosen.value === 'project' || chosen.value === 'user'))
    return { ...ui, stage: 'save', option: chosen };
  answer(prompt, chosen);
  return ui;
}

const GRAY = { color: 'muted' } as const;

/** The prompt as lines, sized to the terminal. */
export function promptLines(prompt: Prompt, ui: PromptUi, width: number): Line[] {
  if (prompt.kind === 'form') return formLines(prompt, ui.form ?? initialForm(prompt), width);
  const title = wrapLine([{ text: promptTitle(prompt), style: { bold: true, color: 'warning' } }], width);
  if (ui.stage === 'save' && prompt.kind === 'approval') {
    const file = prompt.settingsFiles[ui.option?.value === 'user' ? 'user' : 'project'];
    return [
      ...title,
      [
        { text: 'These rules will be added to ' },
        { text: file, style: { bold: true } },
        { text: ' (permissions.allow):' },
      ],
      ...prompt.rules.map((rule): Line => [{ text: `  + ${rule}`, style: { color: 'success' } }]),
      [{ text: 'Enter to save · Esc to go back', style: GRAY }],
    ].map((line) => truncateLine(line, width));
  }
  if (ui.stage === 'text') {
    return [
      ...title,
      [{ text: ui.option?.text?.label ?? 'Your answer', style: GRAY }],
      ...renderEditor(ui.editor, width, {
        prefix: '› ',
        prefixStyle: { color: 'warning' },
        maxLines: 5,
        cursor: true,
      }),
      [
        {
          text: startsWithText(prompt) ? 'Enter to send · Esc to skip' : 'Enter to send · Esc to go back',
          style: GRAY,
        },
      ],
    ];
  }
  const options = optionsFor(prompt);
  const numbered = primaryOptions(options);
  const lines: Line[] = [...title];
  numbered.forEach((option, index) => {
    const selected = index === ui.selected;
    const line: Line = [
      { text: selected ? '› ' : '  ', style: { color: 'warning' } },
      { text: `${index + 1}. ${option.label}`, style: selected ? { bold: true } : undefined },
    ];
    if (option.hint) line.push({ text: `  ${option.hint}`, style: GRAY });
    // An approval's choices wrap under their words (a narrow terminal reads them whole).
    if (prompt.kind === 'approval') lines.push(...wrapLine(line, width, [{ text: '     ' }]));
    else lines.push(truncateLine(line, width));
  });
  lines.push(
    ...letteredRow(
      options.filter((o) => o.key),
      width,
    ),
  );
  // Before a "don't ask again" choice is made, the rules it adds are shown in full.
  const chosen = numbered[ui.selected];
  if (prompt.kind === 'approval' && ['session', 'project', 'user'].includes(chosen?.value ?? '')) {
    const covers = wrapLine([{ text: `  allows: ${prompt.rules.join(', ')}`, style: GRAY }], width, [
      { text: '    ' },
    ]);
    lines.push(...covers.slice(0, 3));
  }
  const escapeNote =
    prompt.kind === 'approval' ? 'Esc to stop' : prompt.kind === 'pick' ? 'Esc to leave' : 'Esc to interrupt';
  lines.push(
    ...wrapLine([{ text: `↑↓ to choose · Enter or a digit to answer · ${escapeNote}`, style: GRAY }], width),
  );
  return lines;
}

/** The choices one letter away, on as few rows as fit, never splitting one choice's words. */
function letteredRow(options: MenuOption[], width: number): Line[] {
  const rows: Line[] = [];
  let row: Line = [];
  for (const option of options) {
    const item: Line = [
      { text: option.key!, style: STYLES.key },
      { text: ` ${option.label}`, style: STYLES.keyHint },
    ];
    const joined: Line = [{ text: row.length === 0 ? '  ' : ' · ', style: STYLES.keyHint }, ...item];
    if (row.length > 0 && lineWidth(row) + lineWidth(joined) > width) {
      rows.push(row);
      row = [{ text: '  ' }, ...item];
    } else row.push(...joined);
  }
  if (row.length > 0) rows.push(row);
  return rows.flatMap((line) => wrapLine(line, width, [{ text: '    ' }]));
}
