import type { Parser } from 'web-tree-sitter';
import { codeLanguage, fenceLanguage } from './code_languages.js';
import type { Line } from './style.js';
import { colorCode } from './syntax_colors.js';

/**
 * Code blocks coloured by tree-sitter grammars. A grammar costs a wasm load, so none is loaded
 * before the first code block in its language: until it is ready that block is drawn plain, and
 * those who drew it are told (onGrammarLoaded) so they can draw again. A grammar that cannot be
 * loaded leaves its language plain.
 */

type GrammarState = Parser | 'loading' | 'failed';

const grammars = new Map<string, GrammarState>();
const pending = new Map<string, Promise<void>>();
const listeners = new Set<() => void>();
let loadedCount = 0;

/** Blocks larger than this are shown plain: colouring them buys little and costs much. */
const MAX_HIGHLIGHT_CHARS = 100_000;

/** Blocks the live area draws again on every frame, coloured once. */
const colored = new Map<string, Line[]>();
const COLORED_KEPT = 64;

/** Highlights the lines of one code block, or returns them plain while its grammar loads. */
export function highlightCode(lines: string[], languageTag: string): Line[] {
  const name = fenceLanguage(languageTag);
  if (name === 'diff' || name === 'patch') return lines.map(diffLine);
  const language = codeLanguage(languageTag);
  const parser = language && grammarFor(language.grammar);
  if (!language || !parser) return lines.map((text) => [{ text }]);
  const key = `${language.grammar}\n${lines.join('\n')}`;
  if (key.length > MAX_HIGHLIGHT_CHARS) return lines.map((text) => [{ text }]);
  const known = colored.get(key);
  if (known) return known;
  const result = colorCode(parser, lines, language);
  if (colored.size >= COLORED_KEPT) colored.delete(colored.keys().next().value as string);
  colored.set(key, result);
  return result;
}

export function diffLine(text: string): Line {
  if (text.startsWith('+++') || text.startsWith('---')) return [{ text, style: { bold: true } }];
  if (text.startsWith('+')) return [{ text, style: { color: 'added' } }];
  if (text.startsWith('-')) return [{ text, style: { color: 'removed' } }];
  if (text.startsWith('@@')) return [{ text, style: { color: 'accent' } }];
  return [{ text }];
}

/** Calls `listener` whenever a grammar has loaded; returns the unsubscribe (React's subscribe shape). */
export function onGrammarLoaded(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** How many grammars have loaded: it changes exactly when coloured blocks may look different. */
export function grammarsLoaded(): number {
  return loadedCount;
}

/** Settles once the grammar for a fence's language has loaded (or failed, or there is none). */
export function codeGrammarReady(languageTag: string): Promise<void> {
  const language = codeLanguage(languageTag);
  if (!language) return Promise.resolve();
  grammarFor(language.grammar);
  return pending.get(language.grammar) ?? Promise.resolve();
}

function grammarFor(grammar: string): Parser | undefined {
  const state = grammars.get(grammar);
  if (state === undefined) startLoading(grammar);
  return typeof state === 'object' ? state : undefined;
}

function startLoading(grammar: string): void {
  grammars.set(grammar, 'loading');
  const load = (async () => {
    const { loadGrammar, loadTreeSitter } = await import('../../util/tree_sitter.js');
    const treeSitter = await loadTreeSitter();
    const parser = new treeSitter.Parser();
    parser.setLanguage(await loadGrammar(grammar));
    return parser;
  })();
  pending.set(
    grammar,
    load.then(
      (parser) => {
        grammars.set(grammar, parser);
        loadedCount++;
        for (const listener of listeners) listener();
      },
      () => {
        grammars.set(grammar, 'failed');
      },
    ),
  );
}
