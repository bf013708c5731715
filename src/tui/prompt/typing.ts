import { backspace, type EditorState, insert, insertPaste, moveLeft, moveRight } from '../input/editor.js';
import type { EditorAction } from '../input/keys.js';

/**
 * Typing into a prompt's answer: the keys' actions up to Enter. `oneLine` (a form's field) takes
 * a paste as typed text on one line and ignores new lines.
 */
export function typeInto(
  editor: EditorState,
  actions: EditorAction[],
  oneLine = false,
): { editor: EditorState; submitted: boolean } {
  for (const action of actions) {
    if (action.type === 'submit') return { editor, submitted: true };
    if (action.type === 'insert') editor = insert(editor, action.text);
    else if (action.type === 'paste')
      editor = oneLine
        ? insert(editor, action.text.replace(/\s*\n\s*/g, ' '))
        : insertPaste(editor, action.text);
    else if (action.type === 'newline' && !oneLine) editor = insert(editor, '\n');
    else if (action.type === 'backspace') editor = backspace(editor);
    else if (action.type === 'left') editor = moveLeft(editor);
    else if (action.type === 'right') editor = moveRight(editor);
  }
  return { editor, submitted: false };
}
