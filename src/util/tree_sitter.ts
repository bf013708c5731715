import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Language } from 'web-tree-sitter';

export type TreeSitter = typeof import('web-tree-sitter');

// One web-tree-sitter runtime per process, shared by every user (outlines, shell parsing): its
// init is not safe to run twice at once. Everything is loaded on first use; promises (not
// results) are cached so concurrent first calls share one load, and failures are forgotten so a
// later call can try again.
let runtime: Promise<TreeSitter> | undefined;
const grammars = new Map<string, Promise<Language>>();

export function loadTreeSitter(): Promise<TreeSitter> {
  if (!runtime) {
    runtime = (async () => {
      const treeSitter = await import('web-tree-sitter');
      await treeSitter.Parser.init();
      return treeSitter;
    })();
    runtime.catch(() => {
      runtime = undefined;
    });
  }
  return runtime;
}

/** A grammar shipped by @vscode/tree-sitter-wasm (`bash`, `typescript`, `cpp`, …). */
export function loadGrammar(grammar: string): Promise<Language> {
  return cached(grammars, grammar, async () => {
    const treeSitter = await loadTreeSitter();
    return treeSitter.Language.load(join(grammarDirectory(), `tree-sitter-${grammar}.wasm`));
  });
}

/** The package declares no `exports`, so its package.json resolves and the grammars sit beside it. */
function grammarDirectory(): string {
  const packageJson = createRequire(import.meta.url).resolve('@vscode/tree-sitter-wasm/package.json');
  return join(dirname(packageJson), 'wasm');
}

/** Memoises an async load by key, forgetting failures so they are retried rather than remembered. */
export function cached<K, V>(cache: Map<K, Promise<V>>, key: K, load: () => Promise<V>): Promise<V> {
  let pending = cache.get(key);
  if (!pending) {
    pending = load();
    cache.set(key, pending);
    pending.catch(() => cache.delete(key));
  }
  return pending;
}
