import { complete } from './complete.js';
import {
  backspace,
  currentWord,
  deleteForward,
  deleteWordBefore,
  type EditorState,
  emptyEditor,
  expandPastes,
  insert,
  insertPaste,
  killToLineEnd,
  killToLineStart,
  moveEnd,
  moveHome,
  moveLeft,
  moveRight,
  moveVertical,
  replaceRange,
  wordLeft,
  wordRight,
} from './editor.js';
import type { PromptHistory } from './history.js';
import type { EditorAction } from './keys.js';

export interface PromptContext {
  history: PromptHistory;
  cwd: string;
  commands: string[];
  /** Called with the text to send (pastes expanded) and the text as typed (placeholders kept). */
  submit(text: string, shown: string): void;
}

/** Prompts longer than this are not kept in the history file. */
const MAX_HISTORY_CHARS = 10_000;

/** Applies one editor action to the prompt; completions found by Tab are returned for display. */
export function applyAction(
  state: EditorState,
  action: EditorAction,
  ctx: PromptContext,
): { state: EditorState; candidates?: string[] } {
  switch (action.type) {
    case 'insert':
      return { state: insert(state, action.text) };
    case 'paste':
      return { state: insertPaste(state, action.text) };
    case 'newline':
      return { state: insert(state, '\n') };
    case 'submit': {
      // A backslash before Enter continues the prompt on a new line.
      if (state.text.slice(0, state.cursor).endsWith('\\')) return { state: insert(backspace(state), '\n') };
      const text = expandPastes(state);
      if (text.trim()) {
        ctx.history.add(text.length <= MAX_HISTORY_CHARS ? text : state.text);
        ctx.submit(text, state.text);
      }
      return { state: emptyEditor(), candidates: [] };
    }
    case 'clear':
      return { state: emptyEditor(), candidates: [] };
    case 'backspace':
      return { state: backspace(state) };
    case 'delete':
      return { state: deleteForward(state) };
    case 'left':
      return { state: moveLeft(state) };
    case 'right':
      return { state: moveRight(state) };
    case 'home':
      return { state: moveHome(state) };
    case 'end':
      return { state: moveEnd(state) };
    case 'wordLeft':
      return { state: wordLeft(state) };
    case 'wordRight':
      return { state: wordRight(state) };
    case 'deleteWord':
      return { state: deleteWordBefore(state) };
    case 'killStart':
      return { state: killToLineStart(state) };
    case 'killEnd':
      return { state: killToLineEnd(state) };
    case 'up': {
      const moved = moveVertical(state, -1);
      if (moved) return { state: moved };
      const previous = ctx.history.previous(state.text);
      return { state: previous === undefined ? state : emptyEditor(previous) };
    }
    case 'down': {
      const moved = moveVertical(state, 1);
      if (moved) return { state: moved };
      const next = ctx.history.next();
      return { state: next === undefined ? state : emptyEditor(next) };
    }
    case 'complete': {
      const { start, word } = currentWord(state);
      const found = complete(word, start === 0, ctx.cwd, ctx.commands);
      if (!found) return { state, candidates: [] };
      const text = found.replacement + (found.complete ? ' ' : '');
      return { state: replaceRange(state, start, state.cursor, text), candidates: found.candidates };
    }
  }
}
