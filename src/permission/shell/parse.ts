import type { Parser } from 'web-tree-sitter';
import { loadBashParser } from './grammar.js';
import { findLayoutProblem, sourceProblem } from './layout.js';
import type { ParsedCommand } from './types.js';
import { StatementWalker } from './walker.js';
import { UnsupportedShell } from './words.js';

/** Splits a shell command into the simple commands it would run (see `Subcommand`). */
export async function parseShellCommand(command: string): Promise<ParsedCommand> {
  const problem = sourceProblem(command);
  if (problem) return { ok: false, reason: problem };
  return parseWith(await loadBashParser(), command);
}

function parseWith(parser: Parser, command: string): ParsedCommand {
  const tree = parser.parse(command);
  if (!tree) return { ok: false, reason: 'could not parse' };
  try {
    if (tree.rootNode.hasError)
      return { ok: false, reason: 'syntax error (or syntax this parser does not know)' };
    const layoutProblem = findLayoutProblem(tree.rootNode, command);
    if (layoutProblem) return { ok: false, reason: layoutProblem };
    const walker = new StatementWalker(parser);
    walker.statement(tree.rootNode);
    return { ok: true, subcommands: walker.subcommands, arithmetic: walker.arithmetic };
  } catch (error) {
    if (error instanceof UnsupportedShell) return { ok: false, reason: error.message };
    if (error instanceof RangeError) return { ok: false, reason: 'too complex to parse' };
    throw error;
  } finally {
    tree.delete();
  }
}
