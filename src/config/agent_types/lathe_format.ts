import { MODES } from '../types.js';
import {
  nameList,
  oneOf,
  optionalString,
  positiveWholeNumber,
  requiredString,
  unknownFields,
} from './fields.js';
import { readMarkdownAgent } from './frontmatter.js';
import { latheModel } from './model_names.js';
import { definedFields, notYamlNote, type ReadType, typeName } from './read_type.js';

const FIELDS = ['name', 'description', 'tools', 'disallowedTools', 'model', 'mode', 'maxTurns', 'isolation'];

/** lathe's own agent files (`.agents/agents/*.md`, `$LATHE_HOME/agents/*.md`): lathe's tool names. */
export function readLatheAgent(text: string, stem: string): ReadType {
  const { data, body, notYaml } = readMarkdownAgent(text);
  const type = definedFields({
    name: typeName(data, stem),
    description: requiredString(data, 'description'),
    prompt: body || undefined,
    tools: nameList(data, 'tools'),
    disallowedTools: nameList(data, 'disallowedTools'),
    model: latheModel(optionalString(data, 'model')).model,
    mode: oneOf(data, 'mode', MODES),
    maxTurns: positiveWholeNumber(data, 'maxTurns'),
    isolation: oneOf(data, 'isolation', ['worktree'] as const),
  });
  const notes = notYaml ? [notYamlNote(notYaml)] : [];
  // An unknown field is most often a misspelt one: say so rather than let it do nothing unseen.
  const unknown = unknownFields(data, FIELDS);
  if (unknown.length > 0)
    notes.push(
      `ignored unknown ${unknown.length === 1 ? 'field' : 'fields'} ${unknown.join(', ')} (known: ${FIELDS.join(', ')})`,
    );
  return { type, notes };
}
