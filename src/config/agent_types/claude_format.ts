import type { Mode } from '../types.js';
import {
  type Fields,
  nameList,
  oneOf,
  optionalBoolean,
  optionalString,
  positiveWholeNumber,
  requiredString,
} from './fields.js';
import { readMarkdownAgent } from './frontmatter.js';
import { claudeModel } from './model_names.js';
import { definedFields, ignoredFields, notYamlNote, type ReadType, typeName } from './read_type.js';
import { CLAUDE_TOOLS, mapToolNames } from './tool_names.js';

const APPLIED = [
  'name',
  'description',
  'tools',
  'disallowedTools',
  'model',
  'permissionMode',
  'maxTurns',
  'isolation',
  'disabled',
];
const DISPLAY_ONLY = ['color'];

/** `mcp__server__tool` is lathe's `server__tool`. */
const mcpTool = (name: string) => /^mcp__(.+__.+)$/.exec(name)?.[1];

/** Plan mode carries over; a mode that would approve more than lathe's rules is not applied. */
function permissionMode(data: Fields, notes: string[]): Mode | undefined {
  const value = optionalString(data, 'permissionMode');
  if (value === undefined || value === 'default') return undefined;
  if (value === 'plan') return 'plan';
  notes.push(`permissionMode: "${value}" is not applied: a child's approvals follow lathe's rules`);
  return undefined;
}

function toolList(data: Fields, field: string, deny: boolean, notes: string[]): string[] | undefined {
  const entries = nameList(data, field);
  if (entries === undefined) return undefined;
  const mapped = mapToolNames(entries, CLAUDE_TOOLS, { field, deny, other: mcpTool });
  notes.push(...mapped.notes);
  return mapped.names;
}

/** Claude Code's agent files (`.claude/agents/*.md`): its tool names and model aliases, normalised. */
export function readClaudeAgent(text: string, stem: string): ReadType {
  const { data, body, notYaml } = readMarkdownAgent(text);
  const notes: string[] = notYaml ? [notYamlNote(notYaml)] : [];
  if (optionalBoolean(data, 'disabled')) return { skipped: 'disabled in its file (disabled: true)', notes };
  const model = claudeModel(optionalString(data, 'model'));
  if (model.note) notes.push(model.note);
  const type = definedFields({
    name: typeName(data, stem),
    description: requiredString(data, 'description'),
    prompt: body || undefined,
    tools: toolList(data, 'tools', false, notes),
    disallowedTools: toolList(data, 'disallowedTools', true, notes),
    model: model.model,
    mode: permissionMode(data, notes),
    maxTurns: positiveWholeNumber(data, 'maxTurns'),
    isolation: oneOf(data, 'isolation', ['worktree'] as const),
  });
  return { type, notes: [...notes, ...ignoredFields(data, APPLIED, DISPLAY_ONLY)] };
}
