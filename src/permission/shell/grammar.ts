import type { Parser } from 'web-tree-sitter';
import { cached, loadGrammar, loadTreeSitter } from '../../util/tree_sitter.js';

// Parsing is synchronous, so one parser serves every call for the life of the process.
const parsers = new Map<string, Promise<Parser>>();

/** A tree-sitter parser set to the bash grammar. */
export function loadBashParser(): Promise<Parser> {
  return cached(parsers, 'bash', async () => {
    const treeSitter = await loadTreeSitter();
    return new treeSitter.Parser().setLanguage(await loadGrammar('bash'));
  });
}
