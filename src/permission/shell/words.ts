import type { Node } from 'web-tree-sitter';
import type { Word } from './types.js';

/** A construct this parser does not model faithfully enough to judge; the command is then not parsed. */
export class UnsupportedShell extends Error {}

/** Where word evaluation reports what it finds nested inside a word. */
export interface NestedSink {
  /** `$(…)`, backticks, `<(…)` or `>(…)`: the statements inside run too. */
  substitution(node: Node): void;
  arithmetic(text: string): void;
}

/** Expansions that undergo word splitting when unquoted, so one source word may become several. */
const SPLITTING = new Set(['simple_expansion', 'expansion', 'command_substitution', 'arithmetic_expansion']);

export function literal(value: string): Word {
  return { value, dynamic: false, literalPrefix: value };
}

/** Quote removal for one word node, reporting substitutions and arithmetic found inside it. */
export function evaluateWord(node: Node, sink: NestedSink): Word {
  switch (node.type) {
    case 'word':
      return bareWord(node.text);
    case 'number':
      return literal(node.text);
    case 'raw_string':
      return literal(node.text.slice(1, -1));
    case 'ansi_c_string':
      return ansiCString(node.text.slice(2, -1));
    case 'string':
      return doubleQuoted(node, sink);
    case 'concatenation':
      return concatenation(node, sink);
    case 'simple_expansion':
    case 'expansion':
    case 'command_substitution':
    case 'arithmetic_expansion':
    case 'brace_expression':
      scanNested(node, sink);
      return { value: node.text.trim(), dynamic: true, literalPrefix: '' };
    case 'process_substitution':
      scanNested(node, sink);
      // Replaced by a path such as /dev/fd/63: never an option.
      return { value: node.text, dynamic: true, literalPrefix: '/' };
    default:
      throw new UnsupportedShell(`unsupported word (${node.type}): ${node.text}`);
  }
}

/**
 * An unquoted word: backslash escapes are removed; globs, brace expansion and a leading tilde make it
 * dynamic from that point. Quotes or substitutions inside a leaf mean the grammar tokenised the word
 * differently from bash, so they are refused rather than guessed at.
 */
function bareWord(text: string): Word {
  let value = '';
  let dynamicAt = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      const next = text[i + 1];
      if (next === undefined) value += c;
      else if (next !== '\n') value += next;
      i++;
      continue;
    }
    if (c === '`' || c === "'" || c === '"' || (c === '$' && '({['.includes(text[i + 1] ?? ' '))) {
      throw new UnsupportedShell(`unsupported quoting in word: ${text}`);
    }
    if (dynamicAt < 0) {
      if (c === '~' && i === 0) dynamicAt = 1;
      else if (c === '*' || c === '?' || c === '[' || (c === '{' && text[i + 1] !== '}'))
        dynamicAt = value.length;
    }
    value += c;
  }
  return dynamicAt < 0 ? literal(value) : { value, dynamic: true, literalPrefix: value.slice(0, dynamicAt) };
}

function concatenation(node: Node, sink: NestedSink): Word {
  const pieces: Word[] = [];
  let bare = '';
  let splits = false;
  for (const child of node.children) {
    if (!child.isNamed) throw new UnsupportedShell(`unsupported word: ${node.text}`);
    // Adjacent unquoted pieces are rejoined so `{}` and `{a,b}` are judged as bash sees them.
    if (child.type === 'word') {
      bare += child.text;
      continue;
    }
    if (bare) pieces.push(bareWord(bare));
    bare = '';
    splits ||= SPLITTING.has(child.type);
    pieces.push(evaluateWord(child, sink));
  }
  if (bare) pieces.push(bareWord(bare));

  let value = '';
  let prefix = '';
  let dynamic = false;
  for (const piece of pieces) {
    if (!dynamic) prefix += piece.literalPrefix;
    dynamic ||= piece.dynamic;
    value += piece.value;
  }
  if (!dynamic) return literal(value);
  return { value, dynamic, literalPrefix: splits ? '' : prefix };
}

function doubleQuoted(node: Node, sink: NestedSink): Word {
  const parts = node.namedChildren;
  for (const part of parts) scanNested(part, sink, true);
  const body = node.text.slice(1, -1);
  if (parts.every((part) => part.type === 'string_content')) return literal(unescapeDoubleQuoted(body));
  const first = parts[0];
  const leading =
    first?.type === 'string_content' && first.startIndex === node.startIndex + 1
      ? unescapeDoubleQuoted(first.text)
      : '';
  return { value: body, dynamic: true, literalPrefix: leading };
}

/** Inside double quotes a backslash only escapes `$`, a backquote, `"`, `\` and a newline. */
function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === '\n' ? '' : c));
}

const ANSI_C_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** `$'…'`. Escapes whose result bash would not give as one JS character (bytes, NUL, `\c`) make it dynamic. */
function ansiCString(body: string): Word {
  let value = '';
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== '\\' || i + 1 >= body.length) {
      value += body[i];
      continue;
    }
    const rest = body.slice(i + 1);
    const simple = ANSI_C_ESCAPES[rest[0]];
    const numeric = /^(?:[0-7]{1,3}|x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8})/.exec(rest)?.[0];
    if (simple !== undefined) {
      value += simple;
      i++;
    } else if (numeric) {
      const code = /^[0-7]/.test(numeric)
        ? Number.parseInt(numeric, 8)
        : Number.parseInt(numeric.slice(1), 16);
      const byteEscape = numeric[0] !== 'u' && numeric[0] !== 'U';
      if (code === 0 || code > 0x10ffff || (byteEscape && code > 0x7f)) return unknownAnsiC(body);
      value += String.fromCodePoint(code);
      i += numeric.length;
    } else if (rest[0] === 'c') {
      return unknownAnsiC(body);
    } else {
      value += `\\${rest[0]}`;
      i++;
    }
  }
  return literal(value);
}

function unknownAnsiC(body: string): Word {
  return { value: `$'${body}'`, dynamic: true, literalPrefix: '' };
}

/** Bash's `@` transformations that only quote or re-case a value; `@P` runs prompt expansion. */
const HARMLESS_TRANSFORMS = new Set(['Q', 'E', 'U', 'u', 'L', 'a', 'A', 'K', 'k']);

/**
 * Walks an expansion or string for substitutions, arithmetic and constructs that are refused.
 * `literalQuotes`: inside double quotes (or an expansion) single quotes do not quote, so a
 * "raw string" the grammar found there may still hold a substitution bash runs.
 */
export function scanNested(node: Node, sink: NestedSink, literalQuotes = false): void {
  switch (node.type) {
    case 'command_substitution':
      // Inside backticks a backslash changes meaning (escaped backticks nest); not modelled.
      if (node.text.startsWith('`') && node.text.includes('\\')) {
        throw new UnsupportedShell('backslash inside backquotes');
      }
      sink.substitution(node);
      return;
    case 'process_substitution':
      sink.substitution(node);
      return;
    case 'arithmetic_expansion':
      sink.arithmetic(arithmeticBody(node.text));
      break;
    case 'subscript': {
      const index = node.childForFieldName('index');
      if (index && index.text !== '@' && index.text !== '*') sink.arithmetic(index.text);
      break;
    }
    case 'expansion':
      checkExpansion(node, sink);
      break;
    case 'raw_string':
    case 'ansi_c_string':
      if (literalQuotes) refuseHiddenSubstitution(node.text);
      return;
  }
  // Leaves (words, string content, the patterns of `${x#…}` and `=~`) hold text the grammar did not
  // parse further; bash may still expand a substitution written in them.
  if (node.namedChildCount === 0) {
    refuseHiddenSubstitution(node.text);
    return;
  }
  const inner = literalQuotes || node.type === 'string' || node.type === 'expansion';
  for (const child of node.namedChildren) scanNested(child, sink, inner);
}

function checkExpansion(node: Node, sink: NestedSink): void {
  const children = node.children;
  for (let i = 0; i < children.length; i++) {
    const token = children[i].type;
    if (token === '!' && i === 1) throw new UnsupportedShell(`indirect expansion: ${node.text}`);
    if (children[i].isNamed || node.fieldNameForChild(i) !== 'operator') continue;
    if (token === '=' || token === ':=')
      throw new UnsupportedShell(`assignment inside an expansion: ${node.text}`);
    if (token === '@' && !HARMLESS_TRANSFORMS.has(children[i + 1]?.text ?? '')) {
      throw new UnsupportedShell(`unsupported transformation: ${node.text}`);
    }
    if (token === ':') {
      // `${x:offset:length}`: both are arithmetic.
      const operands = children.slice(i + 1, -1).map((child) => child.text);
      sink.arithmetic(operands.join(''));
      return;
    }
  }
}

/** A backquote or `$(` / `${` / `$[` left inside a leaf was not parsed as the substitution bash runs. */
export function refuseHiddenSubstitution(text: string): void {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '`' || (text[i] === '$' && '({['.includes(text[i + 1] ?? ' '))) {
      throw new UnsupportedShell(`unparsed substitution in: ${text.trim()}`);
    }
  }
}

/** The expression inside `$((…))`, `$[…]` or `((…))`. */
export function arithmeticBody(text: string): string {
  return text
    .trim()
    .replace(/^\$?\(\(|\)\)$/g, '')
    .replace(/^\$\[|\]$/g, '');
}
