import type { Key } from 'ink';
import { readSettingsObject } from '../../config/settings_file.js';
import { closestName } from '../../util/closest_name.js';
import type { EditorAction } from './editor_action.js';
import { keyName, parseKeyName } from './key_names.js';

type EditorCommand = Exclude<EditorAction['type'], 'insert' | 'paste'>;

interface KeyActionSpec {
  keys: readonly string[];
  /** What the action does, for /help and docs/tui.md. */
  does: string;
  /** The prompt editor's action it is, for actions that edit the prompt. */
  editor?: EditorCommand;
}

/**
 * Every action a key can be bound to, with its default keys. The keybindings file
 * (`$LATHE_HOME/settings/keybindings.json`) maps action names to a key or a list of keys; an empty
 * list unbinds. Actions that work on the whole UI come first: they take their key before the
 * prompt editor sees it.
 */
export const KEY_ACTIONS = {
  cancel: { keys: ['ctrl+c'], does: 'stop the current step or clear the prompt; twice to exit' },
  expand: { keys: ['ctrl+o'], does: 'show the latest tool result in full' },
  viewResult: {
    keys: ['ctrl+g'],
    does: 'page through the whole result last shown in full, in a full-screen view or $PAGER',
  },
  toggleAgents: { keys: ['ctrl+t'], does: 'show or hide the child agents panel' },
  background: { keys: ['ctrl+b'], does: 'send the running command to the background' },
  interrupt: { keys: ['escape'], does: 'interrupt the current step' },
  cycleMode: { keys: ['shift+tab'], does: 'cycle Act → Act, edits approved → Plan' },
  quit: { keys: ['ctrl+d'], does: 'exit, when the prompt is empty' },
  submit: {
    keys: ['enter'],
    does: 'send (while the agent works: queue for its next step)',
    editor: 'submit',
  },
  newline: {
    keys: ['alt+enter', 'shift+enter', 'ctrl+j'],
    does: 'new line (so does \\ before Enter)',
    editor: 'newline',
  },
  historyUp: { keys: ['up'], does: 'up a line; on the first line, the earlier prompt', editor: 'up' },
  historyDown: { keys: ['down'], does: 'down a line; on the last line, the later prompt', editor: 'down' },
  complete: { keys: ['tab'], does: 'complete a /command or an @path', editor: 'complete' },
  clear: { keys: [], does: 'clear the prompt', editor: 'clear' },
  cursorLeft: { keys: ['left'], does: 'cursor left', editor: 'left' },
  cursorRight: { keys: ['right', 'ctrl+f'], does: 'cursor right', editor: 'right' },
  wordLeft: { keys: ['ctrl+left', 'alt+left', 'alt+b'], does: 'a word left', editor: 'wordLeft' },
  wordRight: { keys: ['ctrl+right', 'alt+right', 'alt+f'], does: 'a word right', editor: 'wordRight' },
  lineStart: { keys: ['home', 'ctrl+a'], does: 'start of the line', editor: 'home' },
  lineEnd: { keys: ['end', 'ctrl+e'], does: 'end of the line', editor: 'end' },
  deleteBackward: {
    keys: ['backspace', 'ctrl+h'],
    does: 'delete the character before the cursor',
    editor: 'backspace',
  },
  deleteWord: { keys: ['ctrl+w', 'alt+d'], does: 'delete the word before the cursor', editor: 'deleteWord' },
  deleteToLineStart: { keys: ['ctrl+u'], does: 'delete to the start of the line', editor: 'killStart' },
  deleteToLineEnd: { keys: ['ctrl+k'], does: 'delete to the end of the line', editor: 'killEnd' },
} satisfies Record<string, KeyActionSpec>;

export type KeyActionName = keyof typeof KEY_ACTIONS;

const ACTION_NAMES = Object.keys(KEY_ACTIONS) as KeyActionName[];

/** Which action each key runs, and the keys of each action. */
export class Keymap {
  private readonly byKey = new Map<string, KeyActionName>();

  constructor(readonly keysOf: Readonly<Record<KeyActionName, readonly string[]>>) {
    for (const name of ACTION_NAMES) for (const key of keysOf[name]) this.byKey.set(key, name);
  }

  /** The action a key press runs, if any. */
  action(input: string, key: Key): KeyActionName | undefined {
    const name = keyName(input, key);
    if (name === undefined) return undefined;
    const action = this.byKey.get(name);
    // Shift with a key that has no binding of its own (shift+left) does what the key does.
    if (action || !name.includes('shift+') || name.endsWith('+tab') || name.endsWith('+enter')) return action;
    return this.byKey.get(name.replace('shift+', ''));
  }

  /** The prompt editor's action for a key press, if it is bound to one. */
  editorAction(input: string, key: Key): EditorCommand | undefined {
    const action = this.action(input, key);
    return action === undefined ? undefined : (KEY_ACTIONS[action] as KeyActionSpec).editor;
  }
}

function defaultKeys(): Record<KeyActionName, readonly string[]> {
  const keys = {} as Record<KeyActionName, readonly string[]>;
  for (const name of ACTION_NAMES) keys[name] = KEY_ACTIONS[name].keys;
  return keys;
}

export const DEFAULT_KEYMAP = new Keymap(defaultKeys());

let active = DEFAULT_KEYMAP;

/** Makes a keymap the one hints name keys from (the UI's, once it has read the file). */
export function setActiveKeymap(keymap: Keymap): void {
  active = keymap;
}

/** The first key of an action as a hint writes it (`ctrl+o`), or its name when it has none. */
export function keyHint(action: KeyActionName): string {
  return active.keysOf[action][0] ?? action;
}

/**
 * The keymap a keybindings file's object asks for, and a line for each entry it could not take
 * (that entry keeps its default keys). A key the file binds leaves every default it had.
 */
export function keymapFrom(
  value: Record<string, unknown>,
  source: string,
): { keymap: Keymap; problems: string[] } {
  const keys = defaultKeys();
  const problems: string[] = [];
  const claimed = new Map<string, KeyActionName>();
  for (const [action, entry] of Object.entries(value)) {
    if (action.startsWith('$')) continue;
    if (!(ACTION_NAMES as string[]).includes(action)) {
      const near = closestName(
        action,
        ACTION_NAMES.map((n) => n.toLowerCase()),
      );
      const meant = near ? ACTION_NAMES.find((n) => n.toLowerCase() === near) : undefined;
      problems.push(
        `${source}: "${action}" is not an action${meant ? ` (did you mean ${meant}?)` : ' (see docs/tui.md)'}`,
      );
      continue;
    }
    const name = action as KeyActionName;
    const parsed = entryKeys(entry, name, claimed);
    if ('problem' in parsed) {
      const defaults = KEY_ACTIONS[name].keys.join(', ') || 'none';
      problems.push(`${source}: "${name}": ${parsed.problem}; it keeps its default keys (${defaults})`);
      continue;
    }
    keys[name] = parsed.keys;
    for (const key of parsed.keys) claimed.set(key, name);
  }
  // What the file bound is taken from the defaults of every other action.
  for (const name of ACTION_NAMES)
    keys[name] = keys[name].filter((key) => (claimed.get(key) ?? name) === name);
  return { keymap: new Keymap(keys), problems };
}

function entryKeys(
  entry: unknown,
  name: KeyActionName,
  claimed: ReadonlyMap<string, KeyActionName>,
): { keys: string[] } | { problem: string } {
  const list = typeof entry === 'string' ? [entry] : entry;
  if (!Array.isArray(list) || !list.every((k) => typeof k === 'string'))
    return { problem: 'must be a key ("ctrl+o") or a list of keys ([] unbinds it)' };
  const keys: string[] = [];
  for (const text of list) {
    const parsed = parseKeyName(text);
    if ('problem' in parsed) return { problem: `"${text}": ${parsed.problem}` };
    const owner = claimed.get(parsed.key);
    if (owner && owner !== name) return { problem: `"${text}" is already bound to ${owner}` };
    keys.push(parsed.key);
  }
  return { keys };
}

/** Reads the keybindings file; a missing file is the defaults, a broken one the defaults and its line. */
export function loadKeybindings(file: string): { keymap: Keymap; problems: string[] } {
  try {
    const value = readSettingsObject(file);
    return value === undefined ? { keymap: DEFAULT_KEYMAP, problems: [] } : keymapFrom(value, file);
  } catch (error) {
    return { keymap: DEFAULT_KEYMAP, problems: [`${(error as Error).message}; the default keys apply`] };
  }
}

/** The keys of an action as /help shows them: `Ctrl+O`, `Alt+Enter`. */
export function shownKeys(keymap: Keymap, action: KeyActionName): string {
  const keys = keymap.keysOf[action];
  if (keys.length === 0) return '(none)';
  return keys
    .map((key) => key.replace(/(^|\+)([a-z])/g, (_, sep: string, c: string) => sep + c.toUpperCase()))
    .join(', ');
}

/** /help's rows: each action that has a key, by the keys the UI uses now. */
export function keyHelpRows(): Array<[string, string]> {
  return ACTION_NAMES.filter((name) => active.keysOf[name].length > 0).map((name) => [
    shownKeys(active, name),
    KEY_ACTIONS[name].does,
  ]);
}
