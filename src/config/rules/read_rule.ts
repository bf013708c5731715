import { FieldError } from '../agent_types/field_error.js';
import type { Fields } from '../agent_types/fields.js';
import { readMarkdownAgent } from '../agent_types/frontmatter.js';

/** A rule longer than this is cut (the model is told so), as AGENTS.md is. */
export const MAX_RULE_CHARS = 20_000;

export interface RuleContent {
  text: string;
  /** The globs of `paths:` (or Cursor's and Windsurf's `globs:`); absent: the rule always applies. */
  paths?: string[];
}

/**
 * A rule file's instructions and conditions. Frontmatter is optional (most vendors' files have
 * none); when present, `paths` or `globs` (a glob, a comma-separated string of them, or a list)
 * makes the rule conditional, and `alwaysApply: true` keeps it unconditional. Throws a
 * FieldError naming the field that cannot be used.
 */
export function readRule(raw: string): RuleContent {
  const normal = raw.replace(/^\uFEFF/, '');
  if (!/^---[ \t]*\r?\n/.test(normal)) return { text: cut(normal.trim()) };
  const { data, body } = readMarkdownAgent(normal);
  const text = cut(body);
  if (data.alwaysApply === true) return { text };
  const field = data.paths !== undefined ? 'paths' : data.globs !== undefined ? 'globs' : undefined;
  if (!field) return { text };
  const globs = globList(data, field);
  return globs.length > 0 ? { text, paths: globs } : { text };
}

function globList(data: Fields, field: string): string[] {
  const value = data[field];
  const items = typeof value === 'string' ? splitOutsideBraces(value) : value;
  if (!Array.isArray(items) || !items.every((item) => typeof item === 'string'))
    throw new FieldError(field, 'must be a glob or a list of globs (e.g. "src/**/*.ts")');
  return items.map((item) => item.trim()).filter((item) => item !== '');
}

/** `a/*.ts, {b,c}/*.py` → two globs: commas inside braces belong to the glob. */
function splitOutsideBraces(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '{') depth++;
    if (char === '}') depth = Math.max(0, depth - 1);
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}

function cut(text: string): string {
  return text.length > MAX_RULE_CHARS
    ? `${text.slice(0, MAX_RULE_CHARS)}\n[… rule cut at ${MAX_RULE_CHARS} characters]`
    : text;
}
