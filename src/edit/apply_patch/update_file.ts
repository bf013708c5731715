import { describeNearMiss } from '../closest_region.js';
import { trailingBreak } from '../line_endings.js';
import type { FileLines } from './file_lines.js';
import { indexFile } from './line_matcher.js';
import type { LocateFailure, Placement } from './locate_chunk.js';
import { placeChunks } from './place_chunks.js';
import type { PatchChunk } from './types.js';

export type UpdateResult =
  | { ok: true; content: string; added: number; removed: number }
  | { ok: false; error: string };

/**
 * Applies an Update's chunks to one file's text, keeping what the patch did not mean to change:
 * untouched regions are copied verbatim (their line endings included); context lines keep the
 * file's own text and ending; a new line takes the ending of the line it replaces (or of its
 * neighbour), so CRLF, CR-only and mixed files stay as they were; a file without a final
 * newline still has none.
 */
export function updateFileContent(
  path: string,
  content: string,
  chunks: readonly PatchChunk[],
  hunkLabel = 'update',
): UpdateResult {
  const patternLines = chunks.flatMap((chunk) => [...chunk.contexts, ...chunk.oldLines]);
  const { file, matcher } = indexFile(content, patternLines);
  const placed = placeChunks(matcher, file.lineCount, chunks);
  if (!placed.ok) {
    const chunk = chunks[placed.chunk];
    const where = `${path}: ${hunkLabel}, change ${placed.chunk + 1} of ${chunks.length} (patch line ${chunk.line})`;
    return { ok: false, error: explainFailure(where, path, file, chunk, placed.failure) };
  }
  const placements = placed.placements;
  let added = 0;
  let removed = 0;
  for (const placement of placements) {
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
  // The ending of line `index` as a line that something follows: the last line may have none.
  const endingOf = (index: number): string =>
    index >= 0 && index < lineCount ? file.ending(index) || file.eol : file.eol;
  let copiedUpTo = 0;
  const copyLines = (end: number): void => {
    if (end <= copiedUpTo) return;
    pieces.push(file.text.slice(file.offset(copiedUpTo), file.offset(end)));
    // Only the last line can lack an ending; every line gets one here, and the very end of the
    // result is trimmed back below when the file had no final newline.
    if (end === lineCount && !file.finalNewline) pieces.push(file.eol);
    copiedUpTo = end;
  };
  for (const placement of placements) {
    copyLines(placement.start);
    // The old line at or before the current position: an added line copies its ending.
    let oldIndex = 0;
    placement.newLines.forEach((line, i) => {
      const source = placement.keptFrom[i];
      if (source >= 0) {
        pieces.push(file.line(placement.start + source), endingOf(placement.start + source));
        oldIndex = source + 1;
      } else {
        const neighbour = oldIndex < placement.length ? oldIndex : oldIndex - 1;
        pieces.push(line, endingOf(placement.length > 0 ? placement.start + neighbour : lineCount - 1));
      }
    });
    copiedUpTo = Math.max(copiedUpTo, placement.start + placement.length);
  }
  copyLines(lineCount);
  const text = pieces.join('');
  if (file.finalNewline || lineCount === 0) return text;
  // The file had no final newline: neither has the result.
  // Every line was given an ending above, so the last piece is one (a lone CR only in a CR file).
  return text.slice(0, text.length - trailingBreak(text, true).length);
}

function explainFailure(
  where: string,
  path: string,
  file: FileLines,
  chunk: PatchChunk,
  located: LocateFailure,
): string {
  const after = (from: number) => (from > 0 ? ` after line ${from}` : '');
  if (located.reason === 'ambiguous') {
    const headers =
      chunk.contexts.length > 1 ? "its '@@' lines lead to" : `the '@@ ${chunk.contexts[0]}' line occurs at`;
    const contexts =
      located.contextLines.length > 1 ? ` (${headers} lines ${listLines(located.contextLines)})` : '';
    return (
      `${where} is ambiguous: its lines match at lines ${listLines(located.candidates)}${contexts}. ` +
      "Add context lines (or an '@@ <line>' header naming a unique line above the change) so it " +
      'matches one place. No file was changed.'
    );
  }
  if (located.reason === 'context-not-found') {
    const context = chunk.contexts[located.context];
    const nearMiss = describeNearMiss(file.toArray(), [context], {
      from: located.searchedFrom,
      fileLabel: path,
    });
    const previous = chunk.contexts[located.context - 1];
    const below =
      previous === undefined
        ? after(located.searchedFrom)
        : ` below the '@@ ${previous}' line (line ${located.searchedFrom})`;
    return (
      `${where} does not apply: the '@@ ${context}' line was not found${below}.\n` +
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
