import type { Parser, Query } from 'web-tree-sitter';
import { cached, loadGrammar, loadTreeSitter } from '../util/tree_sitter.js';
import type { LanguageSpec } from './languages.js';

/** A parser set to one grammar, and that language's definitions query compiled for it. */
export interface LoadedLanguage {
  parser: Parser;
  query: Query;
}

// Each grammar's wasm is read only when a file in that language is outlined, then kept.
const loaded = new Map<LanguageSpec, Promise<LoadedLanguage>>();

/** The parser and compiled query for a language, loading its grammar the first time. */
export function loadLanguage(spec: LanguageSpec): Promise<LoadedLanguage> {
  return cached(loaded, spec, async () => {
    const treeSitter = await loadTreeSitter();
    const language = await loadGrammar(spec.grammar);
    const parser = new treeSitter.Parser();
    parser.setLanguage(language);
    return { parser, query: new treeSitter.Query(language, spec.query) };
  });
}
