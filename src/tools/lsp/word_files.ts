import { isAbsolute, join } from 'node:path';
import { COMMON_RG_FLAGS, runRipgrep } from '../search/ripgrep.js';

/** Files a word search lists at most (ripgrep is stopped past it). */
export const MAX_WORD_FILES = 500;

/**
 * The files under `folder` that hold `word` as a whole word (ripgrep; ignore files honoured,
 * never `.git`), sorted by path, at most 500. Cheap: it opens the files the language server
 * must see before a rename or a search for references, and finds the importers of an edit.
 */
export async function filesWithWord(word: string, folder: string, signal?: AbortSignal): Promise<string[]> {
  const run = await runRipgrep(
    [...COMMON_RG_FLAGS, '--files-with-matches', '--word-regexp', '--fixed-strings', '--', word, '.'],
    { cwd: folder, signal, maxLines: MAX_WORD_FILES },
  );
  return run.lines
    .filter((line) => line !== '')
    .map((line) => (isAbsolute(line) ? line : join(folder, line)))
    .sort();
}
