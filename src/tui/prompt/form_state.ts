import type { Key } from 'ink';
import type { ElicitedValue } from '../../mcp/elicitation.js';
import type { EditorAction } from '../input/keys.js';
import { type FieldInput, FORM_BUTTONS, type FormPrompt, type FormUi, fieldValue } from './form_fields.js';
import { typeInto } from './typing.js';

/**
 * One key press in a form: Tab/Shift+Tab or Up/Down move between the fields and the buttons,
 * Enter submits (or presses the chosen button), Esc declines. Answering resolves the prompt.
 */
export function formKey(
  prompt: FormPrompt,
  ui: FormUi,
  input: string,
  key: Key,
  actions: EditorAction[],
): FormUi {
  const count = prompt.fields.length + 1;
  if (key.escape) {
    prompt.resolve({ action: 'decline' });
    return ui;
  }
  if (key.tab || key.upArrow || key.downArrow) {
    const back = key.upArrow || (key.tab && key.shift);
    return { ...leave(prompt, ui), focus: (ui.focus + (back ? count - 1 : 1)) % count };
  }
  if (ui.focus === prompt.fields.length) return buttonKey(prompt, ui, key);
  const current = ui.inputs[ui.focus];
  if (current.kind === 'text') {
    const typed = typeInto(current.editor, actions, true);
    const next = withInput(ui, { kind: 'text', editor: typed.editor });
    return typed.submitted ? submit(prompt, next) : next;
  }
  if (key.return) return submit(prompt, ui);
  return withInput(ui, pickKey(current, input, key));
}

function buttonKey(prompt: FormPrompt, ui: FormUi, key: Key): FormUi {
  const n = FORM_BUTTONS.length;
  if (key.leftArrow) return { ...ui, button: (ui.button + n - 1) % n };
  if (key.rightArrow) return { ...ui, button: (ui.button + 1) % n };
  if (!key.return) return ui;
  const pressed = FORM_BUTTONS[ui.button];
  if (pressed === 'Submit') return submit(prompt, ui);
  prompt.resolve({ action: pressed === 'Decline' ? 'decline' : 'cancel' });
  return ui;
}

/** Space, the arrows (and y/n for a yes-or-no field) change a field that is chosen, not typed. */
function pickKey(input: FieldInput, typed: string, key: Key): FieldInput {
  const step = key.leftArrow ? -1 : key.rightArrow || typed === ' ' ? 1 : 0;
  switch (input.kind) {
    case 'flag':
      if (typed === 'y' || typed === 'n') return { ...input, on: typed === 'y' };
      return step ? { ...input, on: !input.on } : input;
    case 'choice': {
      const n = input.options.length;
      if (!step || n === 0) return input;
      return { ...input, index: input.index < 0 ? 0 : (input.index + step + n) % n };
    }
    case 'choices': {
      const n = input.options.length;
      if (typed === ' ')
        return { ...input, ticked: input.ticked.map((on, i) => (i === input.cursor ? !on : on)) };
      return step && n > 0 ? { ...input, cursor: (input.cursor + step + n) % n } : input;
    }
    default:
      return input;
  }
}

/** The focused field's new input; what was wrong with it is forgotten until it is checked again. */
function withInput(ui: FormUi, input: FieldInput): FormUi {
  if (input === ui.inputs[ui.focus]) return ui;
  const inputs = ui.inputs.map((old, i) => (i === ui.focus ? input : old));
  const errors = ui.errors.map((error, i) => (i === ui.focus ? undefined : error));
  return { ...ui, inputs, errors };
}

/** Leaving a field that has something typed in it checks it (an empty one is checked on submit). */
function leave(prompt: FormPrompt, ui: FormUi): FormUi {
  const input = ui.inputs[ui.focus];
  if (input?.kind !== 'text' || input.editor.text.trim() === '') return ui;
  const checked = fieldValue(prompt.fields[ui.focus], input);
  const errors = [...ui.errors];
  errors[ui.focus] = checked.error;
  return { ...ui, errors };
}

/** Accepts with the fields' values, or shows what is wrong and moves to the first such field. */
function submit(prompt: FormPrompt, ui: FormUi): FormUi {
  const content: Record<string, ElicitedValue> = {};
  const errors = prompt.fields.map((field, i) => {
    const checked = fieldValue(field, ui.inputs[i]);
    if (checked.error === undefined && checked.value !== undefined) content[field.name] = checked.value;
    return checked.error;
  });
  const wrong = errors.findIndex((error) => error !== undefined);
  if (wrong >= 0) return { ...ui, errors, focus: wrong };
  prompt.resolve({ action: 'accept', content });
  return ui;
}
