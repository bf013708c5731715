import type { ToolName } from '../builtin_tool_names.js';
import { FieldError } from './field_error.js';
import {
  type Fields,
  oneOf,
  optionalBoolean,
  optionalString,
  positiveWholeNumber,
  requiredString,
} from './fields.js';
import { readMarkdownAgent } from './frontmatter.js';
import { opencodeModel } from './model_names.js';
import { definedFields, ignoredFields, notYamlNote, type ReadType, typeName } from './read_type.js';
import { EDITING_TOOLS, mapToolNames, OPENCODE_TOOLS } from './tool_names.js';

const APPLIED = [
  'description',
  'mode',
  'model',
  'tools',
  'permission',
  'permissions',
  'steps',
  'maxSteps',
  'prompt',
  'disable',
];
const DISPLAY_ONLY = ['color', 'hidden', 'name'];

/** The lathe tools an OpenCode permission key covers. */
const PERMISSION_TOOLS: Record<string, readonly ToolName[]> = {
  edit: EDITING_TOOLS,
  bash: ['execute_command'],
  shell: ['execute_command'],
  webfetch: ['web_fetch'],
  websearch: ['web_search'],
};

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `tools: {write: false, bash: false}`: every tool is on unless set to false, so the false ones are denied. */
function deniedByToolMap(data: Fields, notes: string[]): string[] {
  const map = data.tools;
  if (map === undefined || map === null) return [];
  if (!isMap(map) || !Object.values(map).every((v) => typeof v === 'boolean'))
    throw new FieldError('tools', 'must be a map of tool names to true or false');
  const off = Object.entries(map)
    .filter(([, on]) => on === false)
    .map(([name]) => name);
  const mapped = mapToolNames(off, OPENCODE_TOOLS, { field: 'tools', deny: true });
  notes.push(...mapped.notes);
  return mapped.names;
}

/**
 * Permissions that deny a whole tool (`edit: deny`, `bash: {"*": deny}`, or the newer list's
 * `{action, resource: "*", effect: deny}`) deny its lathe tools; the rest is left to lathe's
 * permission rules, which still ask.
 */
function deniedByPermissions(data: Fields, notes: string[]): string[] {
  const denied: string[] = [];
  const deny = (action: string, whole: boolean, field: string) => {
    const tools = PERMISSION_TOOLS[action];
    if (tools && whole) denied.push(...tools);
    else
      notes.push(
        `${field}: only a whole tool's "deny" carries over; the rest is left to lathe's permission rules`,
      );
  };
  const permission = data.permission;
  if (permission !== undefined && permission !== null) {
    if (!isMap(permission))
      throw new FieldError('permission', 'must be a map of tools to allow, ask or deny');
    for (const [action, value] of Object.entries(permission)) {
      if (value === 'ask') continue;
      const whole =
        value === 'deny' || (isMap(value) && value['*'] === 'deny' && Object.keys(value).length === 1);
      deny(action, whole, `permission.${action}`);
    }
  }
  const list = data.permissions;
  if (list !== undefined && list !== null) {
    if (!Array.isArray(list) || !list.every(isMap))
      throw new FieldError('permissions', 'must be a list of {action, resource, effect}');
    for (const rule of list) {
      if (rule.effect !== 'deny') continue;
      deny(String(rule.action), rule.resource === '*', `permissions (${String(rule.action)})`);
    }
  }
  return denied;
}

/** The body, or the `prompt` field when the body is empty (a `{file:…}` reference is not followed). */
function promptOf(data: Fields, body: string): string | undefined {
  if (body) return body;
  const prompt = optionalString(data, 'prompt');
  if (prompt?.startsWith('{file:'))
    throw new FieldError('prompt', 'refers to a file, which lathe does not read');
  return prompt;
}

/** OpenCode's agent files (`.opencode/agent/*.md`, `.opencode/agents/*.md`): named by the file. */
export function readOpencodeAgent(text: string, stem: string): ReadType {
  const { data, body, notYaml } = readMarkdownAgent(text);
  const notes: string[] = notYaml ? [notYamlNote(notYaml)] : [];
  if (optionalBoolean(data, 'disable')) return { skipped: 'disabled in its file (disable: true)', notes };
  if (oneOf(data, 'mode', ['primary', 'subagent', 'all'] as const) === 'primary')
    return { skipped: 'a primary agent (mode: primary), not a subagent', notes };
  const disallowed = [...new Set([...deniedByToolMap(data, notes), ...deniedByPermissions(data, notes)])];
  const type = definedFields({
    name: typeName({}, stem),
    description: requiredString(data, 'description'),
    prompt: promptOf(data, body),
    disallowedTools: disallowed.length > 0 ? disallowed : undefined,
    model: opencodeModel(optionalString(data, 'model')).model,
    maxTurns: positiveWholeNumber(data, 'steps') ?? positiveWholeNumber(data, 'maxSteps'),
  });
  return { type, notes: [...notes, ...ignoredFields(data, APPLIED, DISPLAY_ONLY)] };
}
