import picomatch from 'picomatch';
import type { RuleText } from '../config/settings.js';
import { expandHome } from './paths.js';
import type { PathRuleTools, PermissionRule } from './types.js';

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
 * followed by more words. `*` is a wildcard, except that a `*` ending the pattern right after a
 * letter, digit or `_` (`echo*`, `npm test:*`) matches only at a word boundary: the command as
 * written or followed by a space and more words, so `echo*` allows `echo hi` but not `echoevil`.
 */
export function commandPatternMatches(pattern: string, subcommand: string): boolean {
  const command = subcommand.trim().replace(/\s+/g, ' ');
  const normalized = pattern.trim().replace(/\s+/g, ' ').replace(/:\*$/, '*');
  if (!normalized.includes('*')) return command === normalized || command.startsWith(`${normalized} `);
  const wordEnd = /\w\*$/.test(normalized);
  const body = wordEnd ? normalized.slice(0, -1) : normalized;
  const source = body
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}${wordEnd ? '(?: .*)?' : ''}$`, 's').test(command);
}

/** A host rule is a glob on the URL's host name (`*.example.com`), written bare or as `domain:example.com`. */
export function hostPatternMatches(pattern: string, host: string): boolean {
  const glob = pattern
    .replace(/^domain:/i, '')
    .trim()
    .toLowerCase();
  return picomatch.isMatch(host.toLowerCase(), glob, { dot: true });
}
