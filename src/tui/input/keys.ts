import type { Key } from 'ink';
import type { EditorAction } from './editor_action.js';
import { DEFAULT_KEYMAP, type Keymap } from './keybindings.js';

export type { EditorAction };

/** Bracketed paste: the terminal wraps pasted text in ESC[200~ … ESC[201~ (Ink hands us them without the ESC). */
export const PASTE_START = '[200~';
export const PASTE_END = '[201~';
export const ENABLE_BRACKETED_PASTE = '\x1b[?2004h';
export const DISABLE_BRACKETED_PASTE = '\x1b[?2004l';

/**
 * Turns Ink's key events into editor actions. Pasted text is collected between the bracketed
 * paste markers; without them (terminals that don't bracket), a burst of several characters
 * with a line break inside is taken as a paste, and one ending in a line break as typed text
 * followed by Enter (fast typing and `tmux send-keys` arrive that way). Other keys go through
 * the keymap (keybindings.ts).
 */
export class KeyReader {
  private pasting: string | undefined;

  constructor(private readonly keymap: Keymap = DEFAULT_KEYMAP) {}

  read(input: string, key: Key): EditorAction[] {
    if (this.pasting !== undefined) {
      const end = input.indexOf(PASTE_END);
      if (end >= 0) {
        const text = this.pasting + input.slice(0, end);
        this.pasting = undefined;
        return text ? [{ type: 'paste', text }] : [];
      }
      this.pasting += key.return ? '\n' : key.tab ? '\t' : input;
      return [];
    }
    if (input.startsWith(PASTE_START)) {
      this.pasting = '';
      return this.read(input.slice(PASTE_START.length), { ...key, return: false });
    }
    if (input.length > 1 && !key.ctrl && !key.meta) return burst(input);
    const bound = this.keymap.editorAction(input, key);
    if (bound) return [{ type: bound }];
    // Keys of other actions, unbound keys and control sequences type nothing.
    if (key.ctrl || key.meta || key.escape || key.tab || input === '\n') return [];
    if (this.keymap.action(input, key)) return [];
    return input ? [{ type: 'insert', text: input }] : [];
  }
}

function burst(input: string): EditorAction[] {
  const text = input.replace(/\r\n?/g, '\n');
  const body = text.replace(/\n$/, '');
  if (body.includes('\n')) return [{ type: 'paste', text }];
  const actions: EditorAction[] = body ? [{ type: text.length > 200 ? 'paste' : 'insert', text: body }] : [];
  if (body.length < text.length) actions.push({ type: 'submit' });
  return actions;
}
