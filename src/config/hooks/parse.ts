import {
  DEFAULT_HOOK_TIMEOUT_SECONDS,
  HOOK_EVENTS,
  type HookCommand,
  type HookEventName,
  type HookGroup,
} from './types.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const show = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
};

export interface ParsedHooks {
  groups: HookGroup[];
  /** Whether this file turns on reading Claude Code's hooks (`hooks.readClaude`). */
  readClaude?: boolean;
  /** Shape errors, each naming the key: a hook that cannot be read is never left out in silence. */
  problems: string[];
  /** Event names lathe does not know (a newer version may): reported, not fatal. */
  unknownEvents: string[];
}

/**
 * Reads the `hooks` object of one settings file: `{EVENT: [{matcher, hooks: [{type: "command",
 * command, timeout?, failClosed?}]}], readClaude?}`, the shape Claude Code uses.
 */
export function parseHooks(value: unknown, source: string): ParsedHooks {
  const parsed: ParsedHooks = { groups: [], problems: [], unknownEvents: [] };
  if (!isObject(value)) {
    parsed.problems.push(`"hooks" must be an object of event names (found ${show(value)})`);
    return parsed;
  }
  for (const [key, entries] of Object.entries(value)) {
    if (key === 'readClaude') {
      if (typeof entries === 'boolean') parsed.readClaude = entries;
      else parsed.problems.push(`"hooks.readClaude" must be true or false (found ${show(entries)})`);
      continue;
    }
    if (!(HOOK_EVENTS as readonly string[]).includes(key)) {
      parsed.unknownEvents.push(key);
      continue;
    }
    if (!Array.isArray(entries)) {
      parsed.problems.push(`"hooks.${key}" must be a list of {matcher, hooks} (found ${show(entries)})`);
      continue;
    }
    entries.forEach((entry, i) => {
      const where = `hooks.${key}[${i}]`;
      const group = parseGroup(entry, where, parsed.problems);
      if (group) parsed.groups.push({ event: key as HookEventName, source, ...group });
    });
  }
  return parsed;
}

function parseGroup(
  entry: unknown,
  where: string,
  problems: string[],
): Omit<HookGroup, 'event' | 'source'> | undefined {
  if (!isObject(entry)) {
    problems.push(`"${where}" must be an object {matcher, hooks} (found ${show(entry)})`);
    return undefined;
  }
  const { matcher = '', hooks } = entry;
  if (typeof matcher !== 'string') {
    problems.push(`"${where}.matcher" must be a string (found ${show(matcher)})`);
    return undefined;
  }
  if (!Array.isArray(hooks) || hooks.length === 0) {
    problems.push(`"${where}.hooks" must be a list of {type: "command", command} (found ${show(hooks)})`);
    return undefined;
  }
  const commands = hooks.map((hook, j) => parseCommand(hook, `${where}.hooks[${j}]`, problems));
  if (commands.some((c) => c === undefined)) return undefined;
  return { matcher, hooks: commands as HookCommand[] };
}

function parseCommand(hook: unknown, where: string, problems: string[]): HookCommand | undefined {
  if (!isObject(hook)) {
    problems.push(`"${where}" must be an object {type: "command", command} (found ${show(hook)})`);
    return undefined;
  }
  const { type, command, timeout = DEFAULT_HOOK_TIMEOUT_SECONDS, failClosed = false } = hook;
  const found = problems.length;
  if (type !== 'command') problems.push(`"${where}.type" must be "command" (found ${show(type)})`);
  if (typeof command !== 'string' || command.trim() === '')
    problems.push(`"${where}.command" must be a command line (found ${show(command)})`);
  if (typeof timeout !== 'number' || !(timeout > 0))
    problems.push(`"${where}.timeout" must be a positive number of seconds (found ${show(timeout)})`);
  if (typeof failClosed !== 'boolean')
    problems.push(`"${where}.failClosed" must be true or false (found ${show(failClosed)})`);
  if (problems.length > found) return undefined;
  return {
    command: command as string,
    timeoutSeconds: timeout as number,
    failClosed: failClosed as boolean,
  };
}
