import { FieldError } from './field_error.js';

/** The fields of an agent file, as its frontmatter or TOML parsed them. */
export type Fields = Record<string, unknown>;

const isBlank = (value: unknown) => value === undefined || value === null;

export function optionalString(data: Fields, field: string): string | undefined {
  const value = data[field];
  if (isBlank(value)) return undefined;
  if (typeof value !== 'string') throw new FieldError(field, 'must be text');
  return value.trim() === '' ? undefined : value.trim();
}

export function requiredString(data: Fields, field: string): string {
  const value = optionalString(data, field);
  if (value === undefined) throw new FieldError(field, 'is missing or empty');
  return value;
}

/**
 * A list of names: a YAML or TOML list, or one comma-separated string (`Read, Grep, Glob`).
 * An empty list is kept: it means none.
 */
export function nameList(data: Fields, field: string): string[] | undefined {
  const value = data[field];
  if (isBlank(value)) return undefined;
  const items =
    typeof value === 'string'
      ? value.split(',')
      : Array.isArray(value) && value.every((item) => typeof item === 'string')
        ? (value as string[])
        : undefined;
  if (!items) throw new FieldError(field, 'must be a list of tool names or a comma-separated string');
  return items.map((item) => item.trim()).filter((item) => item !== '');
}

export function positiveWholeNumber(data: Fields, field: string): number | undefined {
  const value = data[field];
  if (isBlank(value)) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw new FieldError(field, 'must be a whole number of 1 or more');
  return value;
}

export function optionalBoolean(data: Fields, field: string): boolean | undefined {
  const value = data[field];
  if (isBlank(value)) return undefined;
  if (typeof value !== 'boolean') throw new FieldError(field, 'must be true or false');
  return value;
}

export function oneOf<T extends string>(data: Fields, field: string, values: readonly T[]): T | undefined {
  const value = optionalString(data, field);
  if (value === undefined) return undefined;
  if (!(values as readonly string[]).includes(value))
    throw new FieldError(field, `must be ${values.map((v) => `"${v}"`).join(' or ')}, not "${value}"`);
  return value as T;
}

/** The fields of `data` that are none of `known`, in file order. */
export function unknownFields(data: Fields, known: Iterable<string>): string[] {
  const set = new Set(known);
  return Object.keys(data).filter((key) => !set.has(key));
}
