import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Language, Parser, Query } from 'web-tree-sitter';
import type { GrammarName, LanguageSpec } from './languages.js';

/** A parser set to one grammar, and that language's definitions query compiled for it. */
export interface LoadedLanguage {
  parser: Parser;
  query: Query;
}

type TreeSitter = typeof import('web-tree-sitter');

// Everything is loaded on first use and kept for the life of the process: the runtime is imported
// and initialised once, and each grammar's wasm is read only when a file in that language is
// outlined. Promises are cached (not results) so concurrent first calls share one load.
let runtime: Promise<TreeSitter> | undefined;
const grammars = new Map<GrammarName, Promise<Language>>();
const loaded = new Map<LanguageSpec, Promise<LoadedLanguage>>();

/** The parser and compiled query for a language, loading its grammar the first time. */
export function loadLanguage(spec: LanguageSpec): Promise<LoadedLanguage> {
  return cached(loaded, spec, async () => {
    const treeSitter = await loadRuntime();
    const language = await loadGrammar(spec.grammar);
    const parser = new treeSitter.Parser();
    parser.setLanguage(language);
    return { parser, query: new treeSitter.Query(language, spec.query) };
  });
}

function loadRuntime(): Promise<TreeSitter> {
  if (!runtime) {
    runtime = (async () => {
      const treeSitter = await import('web-tree-sitter');
      await treeSitter.Parser.init();
      return treeSitter;
    })();
    // A failed start is not kept, so a later call can try again.
    runtime.catch(() => {
      runtime = undefined;
    });
  }
  return runtime;
}

function loadGrammar(grammar: GrammarName): Promise<Language> {
  return cached(grammars, grammar, async () => {
    const treeSitter = await loadRuntime();
    return treeSitter.Language.load(join(grammarDirectory(), `tree-sitter-${grammar}.wasm`));
  });
}

/** The package declares no `exports`, so its package.json resolves and the grammars sit beside it. */
function grammarDirectory(): string {
  const packageJson = createRequire(import.meta.url).resolve('@vscode/tree-sitter-wasm/package.json');
  return join(dirname(packageJson), 'wasm');
}

/** Memoises an async load by key, forgetting failures so they are retried rather than remembered. */
function cached<K, V>(cache: Map<K, Promise<V>>, key: K, load: () => Promise<V>): Promise<V> {
  let pending = cache.get(key);
  if (!pending) {
    pending = load();
    cache.set(key, pending);
    pending.catch(() => cache.delete(key));
  }
  return pending;
}
