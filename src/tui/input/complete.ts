import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { currentWord, type EditorState } from './editor.js';

const MAX_CANDIDATES = 30;
const SKIPPED = new Set(['.git', 'node_modules']);

export interface Completion {
  /** What the word becomes: the one candidate, or the prefix all candidates share. */
  replacement: string;
  candidates: string[];
  /** A single file or command was found: a space follows it. */
  complete: boolean;
}

/** Completes a `/command` at the start of the prompt or an `@path` anywhere. */
export function complete(
  word: string,
  atStart: boolean,
  cwd: string,
  commands: string[],
): Completion | undefined {
  if (atStart && word.startsWith('/')) {
    const candidates = commands.filter((c) => c.startsWith(word.slice(1))).map((c) => `/${c}`);
    return fromCandidates(word, candidates, candidates.length === 1);
  }
  if (!word.startsWith('@')) return undefined;
  const path = word.slice(1);
  const slash = path.lastIndexOf('/');
  const folder = slash >= 0 ? path.slice(0, slash + 1) : '';
  const prefix = path.slice(slash + 1);
  let names: Array<{ name: string; dir: boolean }>;
  try {
    names = readdirSync(resolve(cwd, folder || '.'), { withFileTypes: true })
      .filter((e) => e.name.startsWith(prefix) && !SKIPPED.has(e.name))
      .filter((e) => prefix.startsWith('.') || !e.name.startsWith('.'))
      .map((e) => ({ name: e.name, dir: e.isDirectory() }));
  } catch {
    return undefined;
  }
  names.sort((a, b) => a.name.localeCompare(b.name));
  const candidates = names.slice(0, MAX_CANDIDATES).map((e) => `@${folder}${e.name}${e.dir ? '/' : ''}`);
  const single = names.length === 1 && !names[0].dir;
  return fromCandidates(word, candidates, single);
}

function fromCandidates(word: string, candidates: string[], single: boolean): Completion | undefined {
  if (candidates.length === 0) return undefined;
  let shared = candidates[0];
  for (const c of candidates) while (!c.startsWith(shared)) shared = shared.slice(0, -1);
  return {
    replacement: shared.length >= word.length ? shared : word,
    candidates: candidates.length > 1 ? candidates : [],
    complete: single,
  };
}

/**
 * What the completion row still shows as the word is typed: the candidates it begins, none once
 * the word is done (a space ends it, or it is the one candidate left, typed in full).
 */
export function openCandidates(candidates: string[], state: EditorState): string[] {
  const { word } = currentWord(state);
  const open = word ? candidates.filter((c) => c.startsWith(word)) : [];
  return open.length === 1 && open[0] === word ? [] : open;
}
