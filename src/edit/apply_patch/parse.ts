import type { ParseResult, PatchChunk, PatchOp } from './types.js';

const BEGIN_PATCH = '*** Begin Patch';
const END_PATCH = '*** End Patch';
const ADD_FILE = '*** Add File:';
const DELETE_FILE = '*** Delete File:';
const UPDATE_FILE = '*** Update File:';
const MOVE_TO = '*** Move to:';
const END_OF_FILE = '*** End of File';
const HEREDOC_OPENERS = new Set(['<<EOF', "<<'EOF'", '<<"EOF"']);
const VALID_HEADERS = '*** Add File:, *** Delete File: or *** Update File:';

type Step<T> = { ok: true; value: T; next: number } | { ok: false; error: string };

/**
 * Parses a `*** Begin Patch` document into ops. Lenient where the reference format is lenient
 * (markers may carry surrounding whitespace, CRLF patches, a heredoc wrapper, a first chunk
 * without `@@`); every refusal names the 1-based patch line and what was expected there.
 */
export function parsePatch(text: string): ParseResult {
  // Like the reference, a trailing "\r" is not part of a patch line.
  const lines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  let first = 0;
  let last = lines.length - 1;
  while (first <= last && lines[first].trim() === '') first++;
  while (last >= first && lines[last].trim() === '') last--;
  if (first > last) return fail("the patch is empty; it must start with '*** Begin Patch'");

  // A patch pasted as a shell heredoc (`<<'EOF' ... EOF`) is unwrapped, as the reference does.
  if (HEREDOC_OPENERS.has(lines[first].trim()) && lines[last].trim().endsWith('EOF') && last - first >= 3) {
    first++;
    last--;
  }
  if (lines[first].trim() !== BEGIN_PATCH) {
    return fail(`line ${first + 1}: expected '${BEGIN_PATCH}' as the first line, got ${quote(lines[first])}`);
  }
  if (last === first || lines[last].trim() !== END_PATCH) {
    return fail(`line ${last + 1}: expected '${END_PATCH}' as the last line, got ${quote(lines[last])}`);
  }

  const ops: PatchOp[] = [];
  let index = first + 1;
  while (index < last) {
    if (lines[index].trim() === '') {
      index++;
      continue;
    }
    const step = parseOp(lines, index, last, ops.at(-1));
    if (!step.ok) return step;
    ops.push(step.value);
    index = step.next;
  }
  if (ops.length === 0) {
    return fail(`line ${last + 1}: the patch has no hunks; expected ${VALID_HEADERS} before '${END_PATCH}'`);
  }
  return { ok: true, ops };
}

function parseOp(lines: string[], index: number, end: number, previous: PatchOp | undefined): Step<PatchOp> {
  const header = lines[index].trim();
  const line = index + 1;
  const marker = [ADD_FILE, DELETE_FILE, UPDATE_FILE].find((candidate) => header.startsWith(candidate));
  if (marker === undefined) {
    const hint = previous?.kind === 'add' ? " (every line of an added file must start with '+')" : '';
    return fail(
      `line ${line}: ${quote(lines[index])} is not a valid hunk header; expected ${VALID_HEADERS}${hint}`,
    );
  }
  const path = header.slice(marker.length).trim();
  if (path === '') return fail(`line ${line}: '${marker}' needs a file path after it`);
  if (marker === DELETE_FILE) return { ok: true, value: { kind: 'delete', path, line }, next: index + 1 };
  if (marker === UPDATE_FILE) return parseUpdate(lines, index, end, path);

  let next = index + 1;
  let content = '';
  while (next < end && lines[next].startsWith('+')) {
    content += `${lines[next].slice(1)}\n`;
    next++;
  }
  return { ok: true, value: { kind: 'add', path, content, line }, next };
}

function parseUpdate(lines: string[], index: number, end: number, path: string): Step<PatchOp> {
  let next = index + 1;
  let moveTo: string | null = null;
  const maybeMove = next < end ? lines[next].trim() : '';
  if (maybeMove.startsWith(MOVE_TO)) {
    moveTo = maybeMove.slice(MOVE_TO.length).trim();
    if (moveTo === '') return fail(`line ${next + 1}: '${MOVE_TO}' needs a file path after it`);
    next++;
  }
  const chunks: PatchChunk[] = [];
  while (next < end) {
    if (lines[next].trim() === '') {
      next++;
      continue;
    }
    if (startsHunk(lines[next])) break;
    const step = parseChunk(lines, next, end, path, chunks.length === 0);
    if (!step.ok) return step;
    chunks.push(step.value);
    next = step.next;
  }
  if (chunks.length === 0) {
    return fail(
      `line ${index + 1}: '${UPDATE_FILE} ${path}' has no changes; expected '@@' followed by lines ` +
        "starting with ' ' (context), '-' (removed) or '+' (added)",
    );
  }
  return { ok: true, value: { kind: 'update', path, moveTo, chunks, line: index + 1 }, next };
}

/** A line that ends the current Update and starts the next hunk. */
function startsHunk(line: string): boolean {
  const trimmed = line.trim();
  return (
    line.startsWith('***') ||
    trimmed.startsWith(ADD_FILE) ||
    trimmed.startsWith(DELETE_FILE) ||
    trimmed.startsWith(UPDATE_FILE)
  );
}

function parseChunk(
  lines: string[],
  start: number,
  end: number,
  path: string,
  isFirstChunk: boolean,
): Step<PatchChunk> {
  const contexts: string[] = [];
  let next = start;
  // Several header lines in a row each narrow the place further, in order.
  for (; next < end && isChunkHeader(lines[next]); next++) {
    if (lines[next].trimEnd() !== '@@') contexts.push(lines[next].slice(3));
  }
  if (next === start && !isFirstChunk) {
    return fail(
      `line ${start + 1}: expected '@@' or '@@ <context line>' to start the next change of ${path}, ` +
        `got ${quote(lines[start])}`,
    );
  }
  if (next >= end) return fail(`line ${start + 1}: the change to ${path} that starts here has no lines`);

  const chunk: PatchChunk = {
    contexts,
    oldLines: [],
    newLines: [],
    keptFrom: [],
    endOfFile: false,
    line: start + 1,
  };
  let consumed = 0;
  for (; next < end; next++) {
    const line = lines[next];
    if (line.trimEnd() === END_OF_FILE) {
      if (consumed === 0) return fail(`line ${next + 1}: '${END_OF_FILE}' closes a change that has no lines`);
      chunk.endOfFile = true;
      next++;
      break;
    }
    const marker = line === '' ? ' ' : line[0];
    const body = line.slice(1);
    if (marker === ' ') {
      chunk.keptFrom.push(chunk.oldLines.length);
      chunk.oldLines.push(body);
      chunk.newLines.push(body);
    } else if (marker === '-') {
      chunk.oldLines.push(body);
    } else if (marker === '+') {
      chunk.keptFrom.push(-1);
      chunk.newLines.push(body);
    } else {
      if (consumed > 0) break;
      return fail(
        `line ${next + 1}: unexpected line ${quote(line)} in a change to ${path}; every line must start ` +
          "with ' ' (context), '-' (removed) or '+' (added)",
      );
    }
    consumed++;
  }
  return { ok: true, value: chunk, next };
}

/** `@@` alone, or `@@ ` and a line of the file. */
function isChunkHeader(line: string): boolean {
  return line.trimEnd() === '@@' || line.startsWith('@@ ');
}

function fail(error: string): { ok: false; error: string } {
  return { ok: false, error };
}

function quote(line: string): string {
  const shown = line.length > 120 ? `${line.slice(0, 117)}...` : line;
  return `'${shown}'`;
}
