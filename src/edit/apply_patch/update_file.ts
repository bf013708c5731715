import { describeNearMiss } from '../near_miss.js';
import type { FileLines } from './file_lines.js';
import { indexFile } from './line_matcher.js';
import { type LocateResult, locateChunk, type Placement } from './locate_chunk.js';
import type { PatchChunk } from './types.js';

export type UpdateResult =
  | { ok: true; content: string; added: number; removed: number }
  | { ok: false; error: string };

/**
 * Applies an Update's chunks to one file's text. Untouched regions are copied verbatim (their
 * line endings included); context lines keep the file's own text; new lines use the file's
 * dominant line ending; the result always ends with a newline, as in the reference.
 */
export function updateFileContent(
  path: string,
  content: string,
  chunks: readonly PatchChunk[],
  hunkLabel = 'update',
): UpdateResult {
  const patternLines = chunks.flatMap((chunk) =>
    chunk.context === null ? chunk.oldLines : [chunk.context, ...chunk.oldLines],
  );
  const { file, matcher } = indexFile(content, patternLines);
  const placements: Placement[] = [];
  let cursor = 0;
  let previousEnd = 0;
  let added = 0;
  let removed = 0;
  for (const [index, chunk] of chunks.entries()) {
    const located = locateChunk(matcher, file.lineCount, chunk, cursor, previousEnd);
    if (!located.ok) {
      const where = `${path}: ${hunkLabel}, change ${index + 1} of ${chunks.length} (patch line ${chunk.line})`;
      return { ok: false, error: explainFailure(where, path, file, chunk, located) };
    }
    const placement = located.placement;
    placements.push(placement);
    cursor = placement.nextSearch;
    if (placement.length > 0) previousEnd = placement.start + placement.length;
    const kept = placement.keptFrom.filter((source) => source >= 0).length;
    added += placement.newLines.length - kept;
    removed += placement.length - kept;
  }
  // Appends (start === line count) were found out of order; a stable sort restores file order.
  placements.sort((a, b) => a.start - b.start);
  return { ok: true, content: render(file, placements), added, removed };
}

function render(file: FileLines, placements: readonly Placement[]): string {
  const pieces: string[] = [];
  const lineCount = file.lineCount;
  let copiedUpTo = 0;
  const copyLines = (end: number): void => {
    if (end <= copiedUpTo) return;
    pieces.push(file.text.slice(file.offset(copiedUpTo), file.offset(end)));
    // Only the last line can lack an ending; more text may follow, and the file ends with one.
    if (end === lineCount && file.ending(lineCount - 1) === '') pieces.push(file.eol);
    copiedUpTo = end;
  };
  for (const placement of placements) {
    copyLines(placement.start);
    placement.newLines.forEach((line, i) => {
      const source = placement.keptFrom[i];
      if (source >= 0) {
        const fileIndex = placement.start + source;
        pieces.push(file.line(fileIndex), file.ending(fileIndex) || file.eol);
      } else {
        pieces.push(line, file.eol);
      }
    });
    copiedUpTo = Math.max(copiedUpTo, placement.start + placement.length);
  }
  copyLines(lineCount);
  return pieces.join('');
}

function explainFailure(
  where: string,
  path: string,
  file: FileLines,
  chunk: PatchChunk,
  located: Exclude<LocateResult, { ok: true }>,
): string {
  const after = (from: number) => (from > 0 ? ` after line ${from}` : '');
  if (located.reason === 'ambiguous') {
    const contexts =
      located.contextLines.length > 1
        ? ` (the '@@ ${chunk.context}' line occurs at lines ${listLines(located.contextLines)})`
        : '';
    return (
      `${where} is ambiguous: its lines match at lines ${listLines(located.candidates)}${contexts}. ` +
      "Add context lines (or an '@@ <line>' header naming a unique line above the change) so it " +
      'matches one place. No file was changed.'
    );
  }
  if (located.reason === 'context-not-found') {
    const nearMiss = describeNearMiss(file.toArray(), [chunk.context ?? ''], {
      from: located.searchedFrom,
      fileLabel: path,
    });
    return (
      `${where} does not apply: the '@@ ${chunk.context}' line was not found${after(located.searchedFrom)}.\n` +
      `${nearMiss}\nNo file was changed.`
    );
  }
  const eof = chunk.endOfFile ? ' at the end of the file' : after(located.searchedFrom);
  const nearMiss = describeNearMiss(file.toArray(), chunk.oldLines, {
    from: chunk.endOfFile ? 0 : located.searchedFrom,
    fileLabel: path,
  });
  return `${where} does not apply: its context and removed lines were not found${eof}.\n${nearMiss}\nNo file was changed.`;
}

function listLines(starts: readonly number[]): string {
  const shown = starts.slice(0, 20).map((start) => String(start + 1));
  const more = starts.length > shown.length ? ` and ${starts.length - shown.length} more` : '';
  return shown.join(', ') + more;
}
