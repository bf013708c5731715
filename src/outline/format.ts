import type { Definition, OutlineResult } from './outline.js';

const INDENT = '  ';

/**
 * A compact listing of outlines, one block per file, sorted by path so the output does not depend
 * on the order files were read in:
 *
 *     src/a.ts
 *     │ 3  export class Foo
 *     │ 5    bar(x: number): void
 *     │ 12 export function baz()
 *
 * Each definition shows its line number and its first line of source, indented under its container.
 */
export function formatOutline(results: ReadonlyArray<{ path: string; outline: OutlineResult }>): string {
  const sorted = [...results].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return sorted.map(({ path, outline }) => formatFile(path, outline.definitions)).join('\n');
}

function formatFile(path: string, definitions: readonly Definition[]): string {
  if (definitions.length === 0) return `${path}\n│ (no definitions)`;
  const width = String(Math.max(...definitions.map((definition) => definition.line))).length;
  const rows = definitions.map(
    (definition) =>
      `│ ${String(definition.line).padEnd(width)} ${INDENT.repeat(definition.depth)}${describe(definition)}`,
  );
  return [path, ...rows].join('\n');
}

/**
 * The definition's source line, without an opening brace that only adds noise. When that line
 * does not show the name (a long line cut short, a C typedef named after its body), kind and name
 * come first so the entry still says what it defines.
 */
function describe(definition: Definition): string {
  const text = definition.text.replace(/\s*\{$/, '');
  if (text.includes(definition.name)) return text;
  return text ? `${definition.kind} ${definition.name}: ${text}` : `${definition.kind} ${definition.name}`;
}
