import type { Fields } from './fields.js';

/**
 * Frontmatter in the plain shape nearly every rule, skill and command file has — `key: text`
 * lines, a flat list or a flat mapping indented under an empty key — read without the YAML
 * parser, which costs most of finding hundreds of them at start. Undefined for anything else (a
 * number, a boolean, an escape, a comment after a value, a duplicate key, a tab, deeper
 * nesting…): the caller then asks the YAML parser, so this never reads a file differently.
 */
export function readPlainYaml(yaml: string): Fields | undefined {
  const data: Fields = {};
  let open: string | undefined;
  let indent = '';
  for (const line of yaml.split('\n')) {
    if (line.includes('\t')) return undefined;
    const trimmed = line.trim();
    if (trimmed === '') continue;
    if (trimmed.startsWith('#')) {
      if (line.startsWith('#')) continue;
      return undefined;
    }
    if (!/^\s/.test(line)) {
      const field = keyValue(line);
      if (!field || Object.hasOwn(data, field.key)) return undefined;
      data[field.key] = field.value;
      open = field.value === null ? field.key : undefined;
      indent = '';
      continue;
    }
    // An indented line belongs to the key above it, which must have had no value.
    if (open === undefined) return undefined;
    const lead = /^ +/.exec(line)?.[0] ?? '';
    if (indent === '') indent = lead;
    else if (lead !== indent) return undefined;
    const nested = nestedLine(trimmed, data[open]);
    if (!nested) return undefined;
    data[open] = nested;
  }
  return data;
}

type Nested = string[] | Record<string, string>;

/** The list or mapping under an empty key, with this line added; undefined when it does not fit. */
function nestedLine(trimmed: string, current: unknown): Nested | undefined {
  const item = /^-[ ]+(.*)$/.exec(trimmed);
  if (item) {
    if (current !== null && !Array.isArray(current)) return undefined;
    const value = scalar(item[1]);
    return value === undefined ? undefined : [...((current as string[] | null) ?? []), value];
  }
  if (current !== null && (Array.isArray(current) || typeof current !== 'object')) return undefined;
  const field = keyValue(trimmed);
  if (!field || typeof field.value !== 'string') return undefined;
  const mapping = { ...((current as Record<string, string> | null) ?? {}) };
  if (Object.hasOwn(mapping, field.key)) return undefined;
  mapping[field.key] = field.value;
  return mapping;
}

/** `key: value` with a plain key; value null when empty (YAML's reading of `key:`). */
function keyValue(line: string): { key: string; value: string | string[] | null } | undefined {
  const field = /^([A-Za-z_][\w-]*):(?:[ ]+(.*))?$/.exec(line.trimEnd());
  // Keys YAML reads as null, a boolean or a number, and one that would set the prototype.
  if (!field || NOT_TEXT.test(field[1]) || field[1] === '__proto__') return undefined;
  const raw = field[2] ?? '';
  if (raw === '') return { key: field[1], value: null };
  const value = raw.startsWith('[') ? flowList(raw) : scalar(raw);
  return value === undefined ? undefined : { key: field[1], value };
}

/** One item of a one-line `[a, "b", 'c']` list and the comma after it (or the end). */
const FLOW_ITEM = /\s*("[^"\\]*"|'[^']*'|[^,"'[\]{}#:]+?)\s*(,|$)/y;

/** A one-line list of text items, as `paths: ["src/**", "*.py"]` is often written. */
function flowList(raw: string): string[] | undefined {
  const inner = /^\[(.*)\]$/.exec(raw.trim())?.[1];
  if (inner === undefined) return undefined;
  if (inner.trim() === '') return [];
  const items: string[] = [];
  for (let at = 0; at < inner.length; ) {
    FLOW_ITEM.lastIndex = at;
    const item = FLOW_ITEM.exec(inner);
    const value = item ? scalar(item[1]) : undefined;
    if (!item || value === undefined) return undefined;
    items.push(value);
    at = FLOW_ITEM.lastIndex;
    if (item[2] === '') break;
  }
  return items;
}

/** Characters that start something other than plain text in YAML, or may (`-`, `?`, `:`). */
const INDICATOR = /^[-?:,[\]{}#&*!|>'"%@`]/;
/** Plain scalars YAML's core schema reads as null, a boolean or a number (and their near kin). */
const NOT_TEXT = /^(?:~|null|true|false|yes|no|on|off|[-+.\d].*)$/i;

/** A value that YAML reads as exactly this text; undefined when YAML might read it otherwise. */
function scalar(raw: string): string | undefined {
  const text = raw.trim();
  const double = /^"([^"\\]*)"$/.exec(text);
  if (double) return double[1];
  const single = /^'([^']*)'$/.exec(text);
  if (single) return single[1];
  if (text === '' || INDICATOR.test(text) || NOT_TEXT.test(text)) return undefined;
  if (text.includes(': ') || text.endsWith(':') || text.includes(' #')) return undefined;
  return text;
}
