import { describeNearMiss } from './closest_region.js';
import { applyViewEdits, lfView, toLf } from './lf_view.js';
import { crEndsLines, detectEol } from './line_endings.js';

export type ExactReplaceResult = { ok: true; content: string; count: number } | { ok: false; error: string };

const MAX_LISTED = 20;

/**
 * The engine behind `edit_file`: replace `oldString` by `newString` in `content`.
 *
 * `oldString` must occur exactly once (overlapping occurrences count: either could be meant)
 * unless `replaceAll`, which replaces every non-overlapping occurrence from the left. Line
 * endings are the file's business: LF in either string matches and writes the file's own
 * endings, so a CRLF file stays CRLF and a CR file stays CR (see line_endings.ts).
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
  const fileEol = detectEol(content);
  const crBreaks = crEndsLines(fileEol);
  const wanted = toLf(oldString, crBreaks);
  const replacement = toLf(newString, crBreaks);
  if (wanted === replacement) {
    return fail('old_string and new_string are identical, so the edit would change nothing.');
  }

  const view = lfView(content, crBreaks);
  const starts = replaceAll ? nonOverlapping(view.text, wanted) : everyOccurrence(view.text, wanted, 2);
  if (starts.length === 0) return fail(notFound(view.text, wanted));
  if (starts.length > 1 && !replaceAll) {
    const all = everyOccurrence(view.text, wanted, Number.POSITIVE_INFINITY);
    return fail(
      `old_string occurs ${all.length} times (at lines ${listLines(view.text, all)}). Include more ` +
        'surrounding lines so that it occurs once, or set replace_all to change every occurrence.',
    );
  }

  const edits = starts.map((start) => ({ start, end: start + wanted.length, text: replacement }));
  return { ok: true, content: applyViewEdits(content, view, edits, crBreaks, fileEol), count: starts.length };
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
