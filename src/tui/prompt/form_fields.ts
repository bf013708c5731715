import type { ElicitedField, ElicitedValue } from '../../mcp/elicitation.js';
import { type EditorState, emptyEditor } from '../input/editor.js';
import type { Prompt } from '../state/prompts.js';

/** What the user has entered in one field so far. */
export type FieldInput =
  | { kind: 'text'; editor: EditorState }
  | { kind: 'flag'; on: boolean }
  /** An enum: the index of the chosen option, -1 while none is. */
  | { kind: 'choice'; index: number; options: string[] }
  /** A multi-select: which options are ticked, and the one the cursor is on. */
  | { kind: 'choices'; ticked: boolean[]; cursor: number; options: string[] };

export type FormPrompt = Extract<Prompt, { kind: 'form' }>;

/** The buttons under a form's fields, in order. */
export const FORM_BUTTONS = ['Submit', 'Decline', 'Cancel'] as const;

/** A form as filled in so far. */
export interface FormUi {
  inputs: FieldInput[];
  /** The field with the cursor; one past the last field is the row of buttons. */
  focus: number;
  /** The button chosen on that row. */
  button: number;
  /** A line for each field found wrong. */
  errors: Array<string | undefined>;
}

export function initialForm(prompt: FormPrompt): FormUi {
  return { inputs: prompt.fields.map(initialInput), focus: 0, button: 0, errors: [] };
}

/** A field as the form opens: the schema's default filled in. */
export function initialInput(field: ElicitedField): FieldInput {
  const options = field.options ?? [];
  if (field.type === 'boolean') return { kind: 'flag', on: field.default === true };
  if (field.type === 'array') {
    const chosen = Array.isArray(field.default) ? field.default : [];
    return { kind: 'choices', ticked: options.map((o) => chosen.includes(o)), cursor: 0, options };
  }
  if (options.length > 0) return { kind: 'choice', index: options.indexOf(String(field.default)), options };
  return { kind: 'text', editor: emptyEditor(field.default === undefined ? '' : String(field.default)) };
}

/** A field's value, or the one line that says what is wrong with it; `undefined` value: left out. */
export function fieldValue(
  field: ElicitedField,
  input: FieldInput,
): { value?: ElicitedValue; error?: undefined } | { error: string } {
  switch (input.kind) {
    case 'flag':
      return { value: input.on };
    case 'choice':
      if (input.index < 0) return field.required ? { error: 'choose one' } : {};
      return { value: input.options[input.index] };
    case 'choices': {
      const value = input.options.filter((_, i) => input.ticked[i]);
      if (value.length === 0 && field.required) return { error: 'choose at least one' };
      const count = countError(value.length, field);
      return count ? { error: count } : { value };
    }
    case 'text':
      return textValue(field, input.editor.text.trim());
  }
}

function textValue(field: ElicitedField, text: string): { value?: ElicitedValue } | { error: string } {
  if (text === '') return field.required ? { error: 'required' } : {};
  if (field.type === 'number' || field.type === 'integer') {
    const value = Number(text);
    if (!Number.isFinite(value)) return { error: 'not a number' };
    if (field.type === 'integer' && !Number.isInteger(value)) return { error: 'not a whole number' };
    if (field.minimum !== undefined && value < field.minimum) return { error: `at least ${field.minimum}` };
    if (field.maximum !== undefined && value > field.maximum) return { error: `at most ${field.maximum}` };
    return { value };
  }
  const length = [...text].length;
  if (field.minLength !== undefined && length < field.minLength)
    return { error: `at least ${field.minLength} characters` };
  if (field.maxLength !== undefined && length > field.maxLength)
    return { error: `at most ${field.maxLength} characters` };
  return { value: text };
}

function countError(count: number, field: ElicitedField): string | undefined {
  if (count === 0) return undefined;
  if (field.minLength !== undefined && count < field.minLength) return `choose at least ${field.minLength}`;
  if (field.maxLength !== undefined && count > field.maxLength) return `choose at most ${field.maxLength}`;
  return undefined;
}

/** What a field takes, in a few words: `a whole number, 1 to 8`. */
export function fieldHint(field: ElicitedField): string {
  const { minimum: min, maximum: max } = field;
  const range =
    min !== undefined && max !== undefined
      ? `, ${min} to ${max}`
      : min !== undefined
        ? `, at least ${min}`
        : max !== undefined
          ? `, at most ${max}`
          : '';
  if (field.type === 'integer') return `a whole number${range}`;
  if (field.type === 'number') return `a number${range}`;
  if (field.type === 'boolean') return 'Space to switch';
  if (field.type === 'array') return '←→ to move · Space to tick';
  if (field.options?.length) return '←→ to choose';
  const { minLength: least, maxLength: most } = field;
  if (least !== undefined && most !== undefined) return `${least} to ${most} characters`;
  if (most !== undefined) return `at most ${most} characters`;
  return least !== undefined ? `at least ${least} characters` : '';
}
