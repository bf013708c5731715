/**
 * The prompt's text and cursor, as pure functions over an immutable state. Large pastes are
 * folded to a placeholder (`[Pasted text #1 +120 lines]`) that stands for the whole text until
 * the prompt is sent.
 */
export interface EditorState {
  text: string;
  /** Index into `text` (UTF-16 units), 0..text.length. */
  cursor: number;
  pastes: Readonly<Record<number, string>>;
}

export const emptyEditor = (text = ''): EditorState => ({ text, cursor: text.length, pastes: {} });

/** Pastes longer than this (characters or lines) are folded into a placeholder. */
const FOLD_CHARS = 800;
const FOLD_LINES = 10;
const PLACEHOLDER = /\[Pasted text #(\d+)(?: \+\d+ lines)?\]/g;

export function insert(state: EditorState, text: string): EditorState {
  const clean = text.replace(/\r\n?/g, '\n');
  return {
    ...state,
    text: state.text.slice(0, state.cursor) + clean + state.text.slice(state.cursor),
    cursor: state.cursor + clean.length,
  };
}

export function insertPaste(state: EditorState, pasted: string): EditorState {
  const text = pasted.replace(/\r\n?/g, '\n');
  const lines = text.split('\n').length;
  if (text.length <= FOLD_CHARS && lines <= FOLD_LINES) return insert(state, text);
  const id = Math.max(0, ...Object.keys(state.pastes).map(Number)) + 1;
  const label = lines > 1 ? `[Pasted text #${id} +${lines} lines]` : `[Pasted text #${id}]`;
  return { ...insert(state, label), pastes: { ...state.pastes, [id]: text } };
}

/** The text to send: placeholders replaced by what was pasted. */
export function expandPastes(state: EditorState): string {
  return state.text.replace(PLACEHOLDER, (whole, id: string) => state.pastes[Number(id)] ?? whole);
}

/** A placeholder ending exactly at `index`, if any: it is deleted as one piece. */
function placeholderBefore(text: string, index: number): { start: number; id: number } | undefined {
  const before = text.slice(0, index);
  const match = /\[Pasted text #(\d+)(?: \+\d+ lines)?\]$/.exec(before);
  return match ? { start: index - match[0].length, id: Number(match[1]) } : undefined;
}

function without(pastes: Readonly<Record<number, string>>, id: number): Record<number, string> {
  const rest = { ...pastes };
  delete rest[id];
  return rest;
}

export function backspace(state: EditorState): EditorState {
  if (state.cursor === 0) return state;
  const placeholder = placeholderBefore(state.text, state.cursor);
  const start = placeholder ? placeholder.start : previousChar(state.text, state.cursor);
  return {
    text: state.text.slice(0, start) + state.text.slice(state.cursor),
    cursor: start,
    pastes: placeholder ? without(state.pastes, placeholder.id) : state.pastes,
  };
}

export function deleteForward(state: EditorState): EditorState {
  if (state.cursor >= state.text.length) return state;
  const end = nextChar(state.text, state.cursor);
  return { ...state, text: state.text.slice(0, state.cursor) + state.text.slice(end) };
}

function previousChar(text: string, index: number): number {
  const code = text.charCodeAt(index - 1);
  return code >= 0xdc00 && code <= 0xdfff && index >= 2 ? index - 2 : index - 1;
}

function nextChar(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code >= 0xd800 && code <= 0xdbff ? index + 2 : index + 1;
}

export const moveLeft = (s: EditorState): EditorState => ({
  ...s,
  cursor: s.cursor > 0 ? previousChar(s.text, s.cursor) : 0,
});
export const moveRight = (s: EditorState): EditorState => ({
  ...s,
  cursor: s.cursor < s.text.length ? nextChar(s.text, s.cursor) : s.cursor,
});

const lineStart = (text: string, index: number) => text.lastIndexOf('\n', index - 1) + 1;
const lineEnd = (text: string, index: number) => {
  const end = text.indexOf('\n', index);
  return end < 0 ? text.length : end;
};

export const moveHome = (s: EditorState): EditorState => ({ ...s, cursor: lineStart(s.text, s.cursor) });
export const moveEnd = (s: EditorState): EditorState => ({ ...s, cursor: lineEnd(s.text, s.cursor) });

/** One line up or down, keeping the column; undefined at the first/last line (history takes over). */
export function moveVertical(s: EditorState, direction: -1 | 1): EditorState | undefined {
  const start = lineStart(s.text, s.cursor);
  const column = s.cursor - start;
  if (direction < 0) {
    if (start === 0) return undefined;
    const previousStart = lineStart(s.text, start - 1);
    return { ...s, cursor: Math.min(previousStart + column, start - 1) };
  }
  const end = lineEnd(s.text, s.cursor);
  if (end >= s.text.length) return undefined;
  const nextEnd = lineEnd(s.text, end + 1);
  return { ...s, cursor: Math.min(end + 1 + column, nextEnd) };
}

export function wordLeft(s: EditorState): EditorState {
  let i = s.cursor;
  while (i > 0 && /\s/.test(s.text[i - 1])) i--;
  while (i > 0 && !/\s/.test(s.text[i - 1])) i--;
  return { ...s, cursor: i };
}

export function wordRight(s: EditorState): EditorState {
  let i = s.cursor;
  while (i < s.text.length && /\s/.test(s.text[i])) i++;
  while (i < s.text.length && !/\s/.test(s.text[i])) i++;
  return { ...s, cursor: i };
}

export function deleteWordBefore(s: EditorState): EditorState {
  const target = wordLeft(s).cursor;
  return { ...s, text: s.text.slice(0, target) + s.text.slice(s.cursor), cursor: target };
}

export function killToLineStart(s: EditorState): EditorState {
  const start = lineStart(s.text, s.cursor);
  const from = start === s.cursor && start > 0 ? start - 1 : start;
  return { ...s, text: s.text.slice(0, from) + s.text.slice(s.cursor), cursor: from };
}

export function killToLineEnd(s: EditorState): EditorState {
  const end = lineEnd(s.text, s.cursor);
  const to = end === s.cursor && end < s.text.length ? end + 1 : end;
  return { ...s, text: s.text.slice(0, s.cursor) + s.text.slice(to) };
}

/** The word the cursor is in or after, for completion: its start and text. */
export function currentWord(s: EditorState): { start: number; word: string } {
  let start = s.cursor;
  while (start > 0 && !/\s/.test(s.text[start - 1])) start--;
  return { start, word: s.text.slice(start, s.cursor) };
}

export function replaceRange(s: EditorState, start: number, end: number, text: string): EditorState {
  return { ...s, text: s.text.slice(0, start) + text + s.text.slice(end), cursor: start + text.length };
}
