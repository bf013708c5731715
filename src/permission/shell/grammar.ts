import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Parser } from 'web-tree-sitter';

// The runtime and the bash grammar are loaded on first use and kept for the life of the process.
// The promise (not the parser) is cached so concurrent first calls share one load; a failed load is
// forgotten so a later call can try again. Parsing is synchronous, so one parser serves every call.
let bashParser: Promise<Parser> | undefined;

/** A tree-sitter parser set to the bash grammar. */
export function loadBashParser(): Promise<Parser> {
  if (!bashParser) {
    bashParser = (async () => {
      const treeSitter = await import('web-tree-sitter');
      await treeSitter.Parser.init();
      const language = await treeSitter.Language.load(join(grammarDirectory(), 'tree-sitter-bash.wasm'));
      return new treeSitter.Parser().setLanguage(language);
    })();
    bashParser.catch(() => {
      bashParser = undefined;
    });
  }
  return bashParser;
}

/** The package declares no `exports`, so its package.json resolves and the grammars sit beside it. */
function grammarDirectory(): string {
  const packageJson = createRequire(import.meta.url).resolve('@vscode/tree-sitter-wasm/package.json');
  return join(dirname(packageJson), 'wasm');
}
