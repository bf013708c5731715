import { createRequire } from 'node:module';
import type { Node, ParseError } from 'jsonc-parser';
import { describeJsoncError } from './jsonc_errors.js';

/**
 * JSON with comments (JSONC), as editors write settings files: `//` and `/* *\/` comments,
 * trailing commas and a leading byte-order mark are accepted. jsonc-parser reads the text; it
 * is loaded the first time a settings file is read, so a start with none never parses it.
 */

export interface JsoncError {
  message: string;
  line: number;
  column: number;
}

export type JsoncResult = { ok: true; value: unknown } | { ok: false; error: JsoncError };

type JsoncParser = typeof import('jsonc-parser');

const load = createRequire(import.meta.url);
let parser: JsoncParser | undefined;

/** Parses JSONC text; an error says what is wrong and where (1-based line and column). */
export function parseJsonc(text: string): JsoncResult {
  parser ??= load('jsonc-parser') as JsoncParser;
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const errors: ParseError[] = [];
  const root = parser.parseTree(body, errors, { allowTrailingComma: true, disallowComments: false });
  const [first] = errors;
  if (first === undefined) return { ok: true, value: root && treeValue(root) };
  const { message, offset } = describeJsoncError(body, root, first, parser);
  return { ok: false, error: { message, ...position(body, offset) } };
}

/**
 * The value of a parsed tree. Not jsonc-parser's own `parse` or `getNodeValue`: they assign
 * each property, and a "__proto__" key would set the object's prototype; here it is data, as
 * with JSON.parse.
 */
function treeValue(node: Node): unknown {
  const children = node.children ?? [];
  if (node.type === 'array') return children.map(treeValue);
  if (node.type !== 'object') return node.value;
  const object: Record<string, unknown> = {};
  for (const [key, value] of children.map((property) => property.children ?? [])) {
    Object.defineProperty(object, key.value as string, {
      value: treeValue(value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return object;
}

function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
