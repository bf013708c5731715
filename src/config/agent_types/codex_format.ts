import { FieldError } from './field_error.js';
import { type Fields, oneOf, optionalString, requiredString } from './fields.js';
import { codexModel } from './model_names.js';
import { parseToml } from './parsers.js';
import { definedFields, ignoredFields, type ReadType, typeName } from './read_type.js';

const APPLIED = ['name', 'description', 'developer_instructions', 'instructions', 'model', 'sandbox_mode'];
const DISPLAY_ONLY = ['nickname_candidates'];

function readToml(text: string): Fields {
  try {
    return parseToml(text);
  } catch (error) {
    throw new FieldError('toml', `is not valid (${(error as Error).message.split('\n')[0]})`);
  }
}

/** Codex's custom agent files (`.codex/agents/*.toml`). */
export function readCodexAgent(text: string, stem: string): ReadType {
  const data = readToml(text);
  const notes: string[] = [];
  const sandbox = oneOf(data, 'sandbox_mode', [
    'read-only',
    'workspace-write',
    'danger-full-access',
  ] as const);
  if (sandbox === 'danger-full-access')
    notes.push('sandbox_mode: "danger-full-access" is not applied: a child runs in lathe\'s sandbox');
  const type = definedFields({
    name: typeName(data, stem),
    description: requiredString(data, 'description'),
    prompt: optionalString(data, 'developer_instructions') ?? optionalString(data, 'instructions'),
    model: codexModel(optionalString(data, 'model')).model,
    readOnly: sandbox === 'read-only' ? true : undefined,
  });
  return { type, notes: [...notes, ...ignoredFields(data, APPLIED, DISPLAY_ONLY)] };
}
