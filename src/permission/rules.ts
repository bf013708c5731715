import picomatch from 'picomatch';
import type { RuleText } from '../config/settings.js';
import { expandHome } from './paths.js';
import type { PermissionRule } from './types.js';

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

/** Tool names may carry `*` (e.g. `github__*` for every tool of one MCP server). */
export function toolNameMatches(ruleTool: string, tool: string): boolean {
  if (!ruleTool.includes('*')) return ruleTool === tool;
  return picomatch.isMatch(tool, ruleTool, { dot: true });
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
  const matches = picomatch(expanded, { dot: true });
  if (expanded.startsWith('/')) return (absolute) => matches(absolute);
  // `**/.env` also covers files outside the workspace.
  const outside = expanded.startsWith('**/');
  return (absolute, relativeToWorkspace) =>
    (relativeToWorkspace !== undefined && matches(relativeToWorkspace)) ||
    (outside && matches(absolute.slice(1)));
}

/**
 * A command rule matches one parsed subcommand: `npm test:*` and `npm test*` are prefixes, `*` a
 * wildcard anywhere; a plain pattern matches the command itself or it followed by more words.
 */
export function commandPatternMatches(pattern: string, subcommand: string): boolean {
  const command = subcommand.trim().replace(/\s+/g, ' ');
  const normalized = pattern.trim().replace(/\s+/g, ' ').replace(/:\*$/, '*');
  if (!normalized.includes('*')) return command === normalized || command.startsWith(`${normalized} `);
  const regex = new RegExp(
    `^${normalized
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    's',
  );
  return regex.test(command);
}

/** A host rule is a glob on the URL's host name (`*.example.com`). */
export function hostPatternMatches(pattern: string, host: string): boolean {
  return picomatch.isMatch(host.toLowerCase(), pattern.toLowerCase(), { dot: true });
}
