import picomatch from 'picomatch';
import type { RuleText } from '../config/settings.js';
import { expandHome } from './paths.js';
import type { Subcommand } from './shell/types.js';
import type { PathRuleTools, PermissionRule, PermissionSubject } from './types.js';

/** Parses `tool` or `tool(pattern)`; returns an error message for anything else. */
export function parseRule(text: RuleText): PermissionRule | string {
  const match = /^\s*([A-Za-z0-9_*-]+)\s*(?:\(([\s\S]*)\))?\s*$/.exec(text.rule);
  if (!match) return `${text.source}: rule "${text.rule}" is not of the form tool or tool(pattern)`;
  const pattern = match[2]?.trim();
  return {
    tool: match[1],
    pattern: pattern === undefined || pattern === '' || pattern === '*' ? undefined : pattern,
    action: text.action,
    source: text.source,
  };
}

/** Compiled globs by pattern: path checks run once per search result, so each glob is compiled once. */
const matchers = new Map<string, (value: string) => boolean>();
const MAX_MATCHERS = 1_000;

function globMatches(value: string, pattern: string): boolean {
  let matcher = matchers.get(pattern);
  if (!matcher) {
    if (matchers.size >= MAX_MATCHERS) matchers.clear();
    matcher = picomatch(pattern, { dot: true });
    matchers.set(pattern, matcher);
  }
  return matcher(value);
}

/** Tool names may carry `*` (e.g. `github__*` for every tool of one MCP server). */
export function toolNameMatches(ruleTool: string, tool: string): boolean {
  if (!ruleTool.includes('*')) return ruleTool === tool;
  return globMatches(tool, ruleTool);
}

/**
 * What a path rule guards, whatever tool reaches the path: a rule on a reading tool
 * (`read_file(.env)`) guards reading, a rule on an editing tool (`write_to_file(secrets/**)`)
 * guards writing; rules on other tools guard nothing beyond their own tool.
 */
export function pathRuleAccess(rule: PermissionRule, tools: PathRuleTools): 'read' | 'write' | undefined {
  if (rule.pattern === undefined) return undefined;
  if (tools.reading.some((tool) => toolNameMatches(rule.tool, tool))) return 'read';
  if (tools.writing.some((tool) => toolNameMatches(rule.tool, tool))) return 'write';
  return undefined;
}

/** A path rule is a glob: absolute or `~/…` patterns match the absolute path, others the workspace-relative one. */
export function pathPatternMatches(
  pattern: string,
  absolute: string,
  relativeToWorkspace: string | undefined,
): boolean {
  return pathPatternMatcher(pattern)(absolute, relativeToWorkspace);
}

/** `pathPatternMatches` for one pattern, compiled once (for matching many paths). */
export function pathPatternMatcher(
  pattern: string,
): (absolute: string, relativeToWorkspace: string | undefined) => boolean {
  const expanded = expandHome(pattern);
  const matches = (value: string) => globMatches(value, expanded);
  if (expanded.startsWith('/')) return (absolute) => matches(absolute);
  // `**/.env` also covers files outside the workspace.
  const outside = expanded.startsWith('**/');
  return (absolute, relativeToWorkspace) =>
    (relativeToWorkspace !== undefined && matches(relativeToWorkspace)) ||
    (outside && matches(absolute.slice(1)));
}

/**
 * A command rule matches one parsed subcommand. A plain pattern matches the command itself or it
 * followed by more words. In an allow rule `*` is a wildcard, except that a `*` ending the pattern
 * right after a letter, digit or `_` (`echo*`, `npm test:*`) matches only at a word boundary: the
 * command as written or followed by a space and more words, so `echo*` allows `echo hi` but not
 * `echoevil`. In a deny or ask rule (`wide`) every `*` matches any run of characters, spaces
 * included, and a pattern ending in ` *` also matches the command without more words: `npm run
 * dangerous*` and `npm run dangerous:*` both stop `npm run dangerous-script`.
 */
export function commandPatternMatches(pattern: string, subcommand: string, wide = false): boolean {
  const command = subcommand.trim().replace(/\s+/g, ' ');
  const normalized = pattern.trim().replace(/\s+/g, ' ').replace(/:\*$/, '*');
  if (!normalized.includes('*')) return command === normalized || command.startsWith(`${normalized} `);
  const wordEnd = wide ? normalized.endsWith(' *') : /\w\*$/.test(normalized);
  const body = wordEnd ? normalized.slice(0, wide ? -2 : -1) : normalized;
  const source = body
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}${wordEnd ? '(?: .*)?' : ''}$`, 's').test(command);
}

/**
 * Whether a command rule matches a subcommand (`text`, with its parse when there is one). Every rule
 * is matched against the command as written and against each `bash -lc '…'` around it; a deny or ask
 * rule also against the program that actually runs, wrappers (`timeout 5`, `env X=1`) and quotes
 * taken off, so `'rm' x` and `nice rm x` are stopped by `deny rm`. An allow rule stays with what
 * was written, so it covers no more than its words say.
 */
export function commandRuleMatches(rule: PermissionRule, text: string, parsed?: Subcommand): boolean {
  const wide = rule.action !== 'allow';
  const texts = [text, ...(parsed?.outer ?? [])];
  if (wide && parsed && parsed.argv.length > 0) texts.push(parsed.argv.join(' '));
  return texts.some((candidate) => commandPatternMatches(rule.pattern!, candidate, wide));
}

/** Whether a rule's pattern matches the call's subject at `index` (a subcommand, a host, an MCP tool). */
export function subjectMatches(rule: PermissionRule, subject: PermissionSubject, index: number): boolean {
  const value = subject.subjects![index];
  if (subject.kind === 'execute') return commandRuleMatches(rule, value, subject.commands?.[index]);
  if (subject.kind === 'web' || subject.kind === 'browser') return hostPatternMatches(rule.pattern!, value);
  return toolNameMatches(rule.pattern!, value);
}

/** A host rule is a glob on the URL's host name (`*.example.com`), written bare or as `domain:example.com`. */
export function hostPatternMatches(pattern: string, host: string): boolean {
  const glob = pattern
    .replace(/^domain:/i, '')
    .trim()
    .toLowerCase();
  return picomatch.isMatch(host.toLowerCase(), glob, { dot: true });
}
