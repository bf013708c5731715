import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import type { ElicitationAnswer, ElicitedField } from '../../src/mcp/elicitation.js';
import {
  type FormPrompt,
  fieldHint,
  fieldValue,
  initialForm,
  initialInput,
} from '../../src/tui/prompt/form_fields.js';
import { formKey } from '../../src/tui/prompt/form_state.js';
import { formLines } from '../../src/tui/prompt/form_view.js';
import { plainText } from '../../src/tui/render/style.js';

const field = (extra: Partial<ElicitedField>): ElicitedField => ({
  name: 'f',
  type: 'string',
  required: false,
  ...extra,
});
const typed = (f: ElicitedField, text: string) =>
  fieldValue(f, { kind: 'text', editor: { text, cursor: text.length, pastes: {} } });

const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
} as Key;

function formOf(fields: ElicitedField[]) {
  const answers: ElicitationAnswer[] = [];
  const prompt = {
    kind: 'form',
    id: 1,
    server: 'asking',
    message: 'Pick some.',
    fields,
    resolve: (a: ElicitationAnswer) => answers.push(a),
    cancel: () => undefined,
  } as FormPrompt;
  let ui = initialForm(prompt);
  const press = (input: string, key: Partial<Key> = {}) => {
    ui = formKey(
      prompt,
      ui,
      input,
      { ...NO_KEY, ...key },
      // The actions the key reader makes of the key: Enter submits, a character is typed.
      key.return ? [{ type: 'submit' }] : input ? [{ type: 'insert', text: input }] : [],
    );
  };
  return { prompt, answers, press, ui: () => ui };
}

describe('a form’s fields checked against the schema', () => {
  it('numbers: type, whole numbers and bounds', () => {
    const workers = field({ type: 'integer', minimum: 1, maximum: 8 });
    expect(typed(workers, '3')).toEqual({ value: 3 });
    expect(typed(workers, 'three')).toEqual({ error: 'not a number' });
    expect(typed(workers, '2.5')).toEqual({ error: 'not a whole number' });
    expect(typed(workers, '0')).toEqual({ error: 'at least 1' });
    expect(typed(field({ type: 'number', maximum: 1 }), '0.5')).toEqual({ value: 0.5 });
  });

  it('strings: required and lengths; an empty optional field is left out', () => {
    expect(typed(field({ required: true }), '  ')).toEqual({ error: 'required' });
    expect(typed(field({}), '')).toEqual({});
    expect(typed(field({ maxLength: 3 }), 'four')).toEqual({ error: 'at most 3 characters' });
    expect(fieldHint(field({ minLength: 2, maxLength: 20 }))).toBe('2 to 20 characters');
  });

  it('an enum opens on its default, and a required one with none chosen says so', () => {
    const colour = field({ options: ['red', 'green'], default: 'green' });
    expect(initialInput(colour)).toMatchObject({ kind: 'choice', index: 1 });
    const none = field({ options: ['red', 'green'], required: true });
    expect(fieldValue(none, initialInput(none))).toEqual({ error: 'choose one' });
  });
});

describe('a form’s keys', () => {
  it('ticks a multi-select with Space, switches a yes-or-no with y, and submits the values', () => {
    const form = formOf([
      field({ name: 'tags', type: 'array', options: ['a', 'b', 'c'], default: ['a'] }),
      field({ name: 'ok', type: 'boolean' }),
    ]);
    form.press('', { rightArrow: true });
    form.press(' ');
    form.press('', { tab: true });
    form.press('y');
    form.press('', { return: true });
    expect(form.answers).toEqual([{ action: 'accept', content: { tags: ['a', 'b'], ok: true } }]);
  });

  it('a wrong field keeps the form open, with its line, at 60 columns', () => {
    const form = formOf([
      field({ name: 'n', title: 'Workers', type: 'integer', required: true, maximum: 8 }),
      field({ name: 'm', title: 'Name' }),
    ]);
    form.press('9');
    form.press('', { tab: true });
    const lines = formLines(form.prompt, form.ui(), 60).map(plainText);
    expect(lines).toContain('    ! at most 8');
    form.press('', { return: true });
    expect(form.answers).toEqual([]);
    expect(form.ui().focus).toBe(0);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
  });

  it('Shift+Tab from the first field goes to the buttons; Decline there declines', () => {
    const form = formOf([field({ name: 'n' })]);
    form.press('', { tab: true, shift: true });
    form.press('', { rightArrow: true });
    form.press('', { return: true });
    expect(form.answers).toEqual([{ action: 'decline' }]);
  });
});
