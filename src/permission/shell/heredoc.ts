import type { Node } from 'web-tree-sitter';
import { type NestedSink, scanNested, UnsupportedShell } from './words.js';

export interface HeredocDelimiter {
  /** The line that ends the body, after quote removal. */
  word: string;
  /** Any quoting turns expansion in the body off. */
  quoted: boolean;
}

const PLAIN = /^[\w.+@%:,=/-]+$/;
const WHOLLY_QUOTED = /^'([^']+)'$|^"([\w.+@%:,=/ -]+)"$|^\\([\w.+@%:,=/-]+)$/;

/**
 * Plain or wholly quoted delimiters only: the grammar compares a partly quoted one (`E"O"F`) as
 * written, while bash ends the body at its quote-removed form and runs the lines after it.
 */
export function heredocDelimiter(text: string): HeredocDelimiter {
  if (PLAIN.test(text)) return { word: text, quoted: false };
  const quoted = WHOLLY_QUOTED.exec(text);
  if (quoted) return { word: quoted[1] ?? quoted[2] ?? quoted[3], quoted: true };
  throw new UnsupportedShell(`unsupported here-document delimiter: ${text}`);
}

/**
 * Bash ends the body at the first line equal to the delimiter; a body holding such a line means the
 * grammar ended it elsewhere. An unquoted body expands `$…` and backquotes, which the grammar only
 * partly parses: every `$(`, `${` or `$[` must start a parsed node, and backquotes are refused.
 */
export function checkHeredocBody(
  body: Node,
  delimiter: HeredocDelimiter,
  stripTabs: boolean,
  sink: NestedSink,
): void {
  const text = body.text;
  for (const line of text.split('\n')) {
    if ((stripTabs ? line.replace(/^\t+/, '') : line) === delimiter.word) {
      throw new UnsupportedShell('here-document delimiter read differently from bash');
    }
  }
  if (delimiter.quoted) return;
  for (const child of body.namedChildren) scanNested(child, sink);
  const parsedAt = new Set<number>();
  for (const child of body.descendantsOfType(['command_substitution', 'expansion', 'arithmetic_expansion'])) {
    parsedAt.add(child.startIndex - body.startIndex + child.text.indexOf('$'));
  }
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '`') throw new UnsupportedShell('backquotes in a here-document');
    else if (text[i] === '$' && '({['.includes(text[i + 1] ?? ' ') && !parsedAt.has(i)) {
      throw new UnsupportedShell('unparsed substitution in a here-document');
    }
  }
}
