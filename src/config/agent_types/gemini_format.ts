import {
  type Fields,
  nameList,
  oneOf,
  optionalString,
  positiveWholeNumber,
  requiredString,
} from './fields.js';
import { readMarkdownAgent } from './frontmatter.js';
import { geminiModel } from './model_names.js';
import { definedFields, ignoredFields, notYamlNote, type ReadType, typeName } from './read_type.js';
import { GEMINI_TOOLS, mapToolNames } from './tool_names.js';

const APPLIED = ['name', 'description', 'kind', 'tools', 'model', 'max_turns'];
const DISPLAY_ONLY = ['display_name'];

/** Gemini CLI's list: `*` is every tool (as if there were no list); other wildcards cannot be carried over. */
function toolList(data: Fields, notes: string[]): string[] | undefined {
  const entries = nameList(data, 'tools');
  if (entries === undefined || entries.includes('*')) return undefined;
  const mapped = mapToolNames(
    entries.filter((entry) => !entry.includes('*')),
    GEMINI_TOOLS,
    { field: 'tools', deny: false },
  );
  for (const wildcard of entries.filter((entry) => entry.includes('*')))
    notes.push(`tools: "${wildcard}" is a wildcard lathe does not expand: left out`);
  notes.push(...mapped.notes);
  return mapped.names;
}

/** Gemini CLI's subagent files (`.gemini/agents/*.md`). */
export function readGeminiAgent(text: string, stem: string): ReadType {
  const { data, body, notYaml } = readMarkdownAgent(text);
  const notes: string[] = notYaml ? [notYamlNote(notYaml)] : [];
  if (oneOf(data, 'kind', ['local', 'remote'] as const) === 'remote')
    return { skipped: 'a remote (Agent-to-Agent) agent: lathe runs local agents only', notes };
  const type = definedFields({
    name: typeName(data, stem),
    description: requiredString(data, 'description'),
    prompt: body || undefined,
    tools: toolList(data, notes),
    model: geminiModel(optionalString(data, 'model')).model,
    maxTurns: positiveWholeNumber(data, 'max_turns'),
  });
  return { type, notes: [...notes, ...ignoredFields(data, APPLIED, DISPLAY_ONLY)] };
}
