import type { Node } from 'web-tree-sitter';

/** Nodes whose text is content rather than tokens with whitespace between them. */
const CONTENT = new Set([
  'string',
  'raw_string',
  'ansi_c_string',
  'heredoc_body',
  'heredoc_content',
  'comment',
]);

/** Longer commands are refused rather than parsed: nobody reviews a 100 KB command anyway. */
const MAX_COMMAND_BYTES = 100_000;

/** Why a command (or a script it hands a shell) is not parsed at all, or undefined. */
export function sourceProblem(command: string): string | undefined {
  if (command.length > MAX_COMMAND_BYTES || Buffer.byteLength(command) > MAX_COMMAND_BYTES)
    return 'too complex to parse (over 100 KB)';
  // Bash and the grammar disagree on carriage returns and other control characters.
  if (/[\0-\x08\x0b-\x1f\x7f]/.test(command)) return 'contains control characters';
  return undefined;
}

/** Characters that end a word in bash whatever follows them. */
const DELIMITERS = ' \t\n;&|()<>';

/**
 * Text the grammar placed between tokens must be plain whitespace. Anything else means it split the
 * input where bash would not: a non-breaking space, which bash keeps inside a word, or a line
 * continuation inside a word (`so\<newline>rt` is one word to bash, two to the grammar).
 */
export function findLayoutProblem(root: Node, source: string): string | undefined {
  const pending: Node[] = [root];
  while (pending.length > 0) {
    const node = pending.pop()!;
    // Content is not checked, but what is nested in it (a substitution in a string) is.
    const checkGaps = !CONTENT.has(node.type);
    let from = node.startIndex;
    for (const child of node.children) {
      const problem = checkGaps && gapProblem(source, from, child.startIndex);
      if (problem) return problem;
      from = child.endIndex;
      pending.push(child);
    }
    const problem = checkGaps && node.childCount > 0 && gapProblem(source, from, node.endIndex);
    if (problem) return problem;
  }
  return undefined;
}

function gapProblem(source: string, from: number, to: number): string | undefined {
  for (let i = from; i < to; i++) {
    const c = source[i];
    if (c === ' ' || c === '\t' || c === '\n') continue;
    if (c === '\\' && source[i + 1] === '\n') {
      const before = i === 0 ? ' ' : source[i - 1];
      const after = source[i + 2] ?? ' ';
      if (!DELIMITERS.includes(before) && !DELIMITERS.includes(after))
        return 'line continuation inside a word';
      i++;
      continue;
    }
    return `unexpected text between words: ${JSON.stringify(source.slice(i, i + 12))}`;
  }
  return undefined;
}
