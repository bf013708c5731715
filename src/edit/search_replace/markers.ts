import { trimEndBlanks } from './lines.js';

/** Length of every marker: `-------`, `=======`, `+++++++`, `.......`. */
export const MARKER_LENGTH = 7;

/**
 * What a diff line is to the parser. `search`, `divider` and `replace` are the markers as
 * written right; `bad-search` and `bad-replace` are lines shaped like a marker that is not one
 * (a run of 3 or more marker characters of the wrong length, mixed characters, an indent, a
 * missing or doubled space, the word in lower case); `near-divider` is a line of 3 or more
 * `=` that is not exactly seven. Anything else is `text`.
 */
export type LineKind =
  | 'search'
  | 'divider'
  | 'replace'
  | 'bad-search'
  | 'bad-replace'
  | 'near-divider'
  | 'text';

const SEARCH_MARKER = /^(?:-{7}|<{7}) SEARCH>?$/;
const DIVIDER_MARKER = /^={7}$/;
const REPLACE_MARKER = /^(?:\+{7}|>{7}) REPLACE>?$/;
const SEARCH_SHAPED = /^[ \t]*[-<]{3,} *search>?$/i;
const REPLACE_SHAPED = /^[ \t]*[+>]{3,} *replace>?$/i;
const DIVIDER_SHAPED = /^[ \t]*={3,}$/;

/** The kind of one diff line (its line break already removed; trailing blanks are ignored). */
export function lineKind(line: string): LineKind {
  const marker = trimEndBlanks(line);
  if (SEARCH_MARKER.test(marker)) return 'search';
  if (DIVIDER_MARKER.test(marker)) return 'divider';
  if (REPLACE_MARKER.test(marker)) return 'replace';
  if (SEARCH_SHAPED.test(marker)) return 'bad-search';
  if (REPLACE_SHAPED.test(marker)) return 'bad-replace';
  if (DIVIDER_SHAPED.test(marker)) return 'near-divider';
  return 'text';
}

/** Whether a line starts at its first column (inside a block, an indented line is content). */
export function unindented(line: string): boolean {
  return line.length > 0 && line[0] !== ' ' && line[0] !== '\t';
}

/** Why a marker-shaped line is not the marker, for the error message. */
export function markerProblem(line: string, kind: 'bad-search' | 'bad-replace' | 'near-divider'): string {
  const shown = `\`${trimEndBlanks(line)}\``;
  const right =
    kind === 'bad-search' ? '`------- SEARCH`' : kind === 'bad-replace' ? '`+++++++ REPLACE`' : '`=======`';
  const run = /^[ \t]*([-<+>=]+)/.exec(line)?.[1] ?? '';
  const why = !unindented(line)
    ? 'it is indented'
    : run.length !== MARKER_LENGTH
      ? `it has ${run.length} marker characters, not ${MARKER_LENGTH}`
      : new Set(run).size > 1
        ? 'it mixes marker characters'
        : 'write one space, then the word in capitals';
  return `${shown} is not a marker (${why}); the marker is ${right}`;
}
