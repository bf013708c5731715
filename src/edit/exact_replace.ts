import { describeNearMiss } from './closest_region.js';
import { detectEol } from './codec.js';
import { lfView, toLf } from './lf_view.js';

export type ExactReplaceResult = { ok: true; content: string; count: number } | { ok: false; error: string };

const MAX_LISTED = 20;

/**
 * The engine behind `edit_file`: replace `oldString` by `newString` in `content`.
 *
 * `oldString` must occur exactly once (overlapping occurrences count: either could be meant)
 * unless `replaceAll`, which replaces every non-overlapping occurrence from the left. Line
 * endings are the file's business: LF in either string matches and writes the file's own
 * endings, so a CRLF file stays CRLF.
 */
export function exactReplace(
  content: string,
  oldString: string,
  newString: string,
  replaceAll: boolean,
): ExactReplaceResult {
  if (oldString === '') {
    return fail(
      'old_string is empty. To insert text, put a neighbouring line in old_string and repeat it in ' +
        'new_string with the addition; to create a file, write the whole file instead.',
    );
  }
  const wanted = toLf(oldString);
  const replacement = toLf(newString);
  if (wanted === replacement) {
    return fail('old_string and new_string are identical, so the edit would change nothing.');
  }

  const view = lfView(content);
  const starts = replaceAll ? nonOverlapping(view.text, wanted) : everyOccurrence(view.text, wanted, 2);
  if (starts.length === 0) return fail(notFound(view.text, wanted));
  if (starts.length > 1 && !replaceAll) {
    const all = everyOccurrence(view.text, wanted, Number.POSITIVE_INFINITY);
    return fail(
      `old_string occurs ${all.length} times (at lines ${listLines(view.text, all)}). Include more ` +
        'surrounding lines so that it occurs once, or set replace_all to change every occurrence.',
    );
  }

  const fileEol = detectEol(content);
  const pieces: string[] = [];
  let copied = 0;
  for (const start of starts) {
    const from = view.toOriginal(start);
    const to = view.toOriginal(start + wanted.length);
    // Write the ending the replaced text used, so mixed files stay as they were around the edit.
    const eol = endingWithin(content, from, to) ?? fileEol;
    pieces.push(content.slice(copied, from), eol === '\n' ? replacement : replacement.replaceAll('\n', eol));
    copied = to;
  }
  pieces.push(content.slice(copied));
  return { ok: true, content: pieces.join(''), count: starts.length };
}

function everyOccurrence(text: string, wanted: string, limit: number): number[] {
  const starts: number[] = [];
  for (let at = text.indexOf(wanted); at !== -1 && starts.length < limit; at = text.indexOf(wanted, at + 1)) {
    starts.push(at);
  }
  return starts;
}

function nonOverlapping(text: string, wanted: string): number[] {
  const starts: number[] = [];
  for (let at = text.indexOf(wanted); at !== -1; at = text.indexOf(wanted, at + wanted.length))
    starts.push(at);
  return starts;
}

function endingWithin(content: string, from: number, to: number): '\n' | '\r\n' | null {
  const newline = content.indexOf('\n', from);
  if (newline === -1 || newline >= to) return null;
  return newline > from && content[newline - 1] === '\r' ? '\r\n' : '\n';
}

/** 1-based line numbers of ascending offsets, found in one pass. */
function listLines(text: string, starts: readonly number[]): string {
  const shown = starts.slice(0, MAX_LISTED);
  const lines: number[] = [];
  let line = 1;
  let scanned = 0;
  for (const start of shown) {
    for (let at = text.indexOf('\n', scanned); at !== -1 && at < start; at = text.indexOf('\n', at + 1))
      line++;
    scanned = start;
    lines.push(line);
  }
  const more = starts.length > shown.length ? ` and ${starts.length - shown.length} more` : '';
  return lines.join(', ') + more;
}

function notFound(text: string, wanted: string): string {
  const fileLines = splitLines(text);
  const expected = splitLines(wanted);
  const nearMiss = describeNearMiss(fileLines, expected, { fileLabel: 'the file' });
  return `old_string was not found in the file (it must match exactly, including whitespace).\n${nearMiss}`;
}

/** Lines of LF text; a final newline does not start an extra empty line. */
function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines;
}

function fail(error: string): ExactReplaceResult {
  return { ok: false, error };
}
