import type { Fields } from '../agent_types/fields.js';

/** The frontmatter fields a skill may have: the Agent Skills format's and Claude Code's invocation switches. */
export const SKILL_FIELDS = [
  'name',
  'description',
  'license',
  'compatibility',
  'metadata',
  'allowed-tools',
  'user-invocable',
  'disable-model-invocation',
  'argument-hint',
] as const;

export const MAX_NAME = 64;
export const MAX_DESCRIPTION = 1024;
export const MAX_COMPATIBILITY = 500;

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** What is wrong with a skill name, or undefined when it is a good one. */
export function nameProblem(name: string): string | undefined {
  if (name.length > MAX_NAME) return `is ${name.length} characters long, more than ${MAX_NAME}`;
  if (!NAME.test(name))
    return 'may hold only lower-case letters, digits and single hyphens between them (e.g. "pdf-tools")';
  return undefined;
}

/** A field's value as text, or undefined when it is absent or blank (`isText` false when it is something else). */
export function textField(data: Fields, field: string): { text?: string; isText: boolean } {
  const value = data[field];
  if (value === undefined || value === null) return { isText: true };
  if (typeof value === 'number') return { text: String(value), isText: true };
  if (typeof value !== 'string') return { isText: false };
  const text = value.trim();
  return { text: text === '' ? undefined : text, isText: true };
}

/** A switch: YAML's true/false, or the words when the frontmatter was read as plain lines. */
export function switchField(data: Fields, field: string): boolean | undefined | 'bad' {
  const value = data[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  return 'bad';
}

/** `metadata`: a mapping of names to text; numbers and switches become text, anything else is left out. */
export function metadataField(value: unknown): { metadata?: Record<string, string>; problems: string[] } {
  if (value === undefined || value === null) return { problems: [] };
  if (typeof value !== 'object' || Array.isArray(value))
    return { problems: ['metadata must be a set of key: value pairs: ignored'] };
  const metadata: Record<string, string> = {};
  const problems: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean')
      metadata[key] = String(item);
    else problems.push(`metadata.${key} must be text: left out`);
  }
  return { metadata, problems };
}

/** The first paragraph of a skill's text that is not a heading: what stands in for a missing description. */
export function firstParagraph(body: string): string | undefined {
  for (const block of body.split(/\n\s*\n/)) {
    const text = block
      .split('\n')
      .filter((line) => !/^\s*#/.test(line))
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (text) return text;
  }
  return undefined;
}
