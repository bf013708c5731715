import { FieldError } from './field_error.js';
import { type Fields, optionalString, unknownFields } from './fields.js';
import type { AgentType } from './types.js';

/** A type as one file defines it, before discovery adds where it came from. */
export type TypeFields = Omit<AgentType, 'source' | 'origin'>;

/** What reading one file gave: a type, or why the file defines none on purpose; and notes to show. */
export interface ReadType {
  type?: TypeFields;
  /** The file says not to load it (disabled, an agent that is no subagent). */
  skipped?: string;
  notes: string[];
}

/** Reads one file's text; `stem` is its name without the extension. Throws FieldError. */
export type TypeReader = (text: string, stem: string) => ReadType;

const TYPE_NAME = /^[A-Za-z0-9][\w.-]{0,63}$/;

/** The `name` field, or the file's stem; a name the tool's `type` parameter can carry. */
export function typeName(data: Fields, stem: string): string {
  const name = optionalString(data, 'name') ?? stem;
  if (!TYPE_NAME.test(name))
    throw new FieldError('name', `"${name}" must be letters, digits, ".", "-" and "_" (at most 64)`);
  return name;
}

/** The type without the fields left undefined. */
export function definedFields(type: TypeFields): TypeFields {
  return Object.fromEntries(Object.entries(type).filter(([, value]) => value !== undefined)) as TypeFields;
}

/**
 * A note naming the fields a file sets that lathe does not apply; `silent` ones only change how
 * another tool displays the agent.
 */
export function ignoredFields(
  data: Fields,
  applied: readonly string[],
  silent: readonly string[] = [],
): string[] {
  const ignored = unknownFields(data, [...applied, ...silent]);
  return ignored.length > 0 ? [`ignored ${ignored.join(', ')} (lathe does not apply them to a type)`] : [];
}

export function notYamlNote(said: string): string {
  return `the frontmatter is not valid YAML (${said}); it was read as plain "key: value" lines — quote values that hold ": "`;
}
