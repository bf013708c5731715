import { useInput } from 'ink';
import { type MutableRefObject, useReducer, useRef } from 'react';
import { SLASH_COMMAND_NAMES } from '../../config/commands/builtin_names.js';
import { applyAction } from '../input/apply_action.js';
import { openCandidates } from '../input/complete.js';
import { type EditorState, emptyEditor } from '../input/editor.js';
import type { PromptHistory } from '../input/history.js';
import { type Keymap, shownKeys } from '../input/keybindings.js';
import { KeyReader } from '../input/keys.js';
import { initialUi, type PromptUi, promptKey } from '../prompt/prompt_state.js';
import type { SessionControls } from '../session/starting.js';
import type { ResultViews } from '../viewer/result_views.js';

/** Ctrl-C twice within this time exits. */
const EXIT_WINDOW_MS = 2000;

/** What the keys change and the UI draws: the input, its completions, an open prompt's answer. */
export interface KeyState {
  editor: MutableRefObject<EditorState>;
  candidates: MutableRefObject<string[]>;
  promptUi: MutableRefObject<PromptUi | undefined>;
}

/**
 * The UI's keys: the result views first, then the bound actions, then an open prompt or the
 * input. Key events can come several per tick, before React re-renders: state lives in refs.
 */
export function useAppKeys(
  session: SessionControls,
  history: PromptHistory,
  keymap: Keymap,
  views: ResultViews,
): KeyState {
  const store = session.store;
  const editor = useRef<EditorState>(emptyEditor());
  const candidates = useRef<string[]>([]);
  const promptUi = useRef<PromptUi | undefined>(undefined);
  const reader = useRef(new KeyReader(keymap));
  const lastCtrlC = useRef(0);
  const [, rerender] = useReducer((n: number) => n + 1, 0);

  useInput((input, key) => {
    const bound = keymap.action(input, key);
    if (views.key(input, key, bound)) return;
    if (bound === 'cancel') {
      const now = Date.now();
      if (now - lastCtrlC.current < EXIT_WINDOW_MS) return session.exit();
      lastCtrlC.current = now;
      if (!session.interrupt()) editor.current = emptyEditor();
      store.setHint(`Press ${shownKeys(keymap, 'cancel')} again to exit`, EXIT_WINDOW_MS);
      return rerender();
    }
    // The store publishes the change (and its notice) in its next frame.
    if (bound === 'toggleAgents') return store.toggleChildren();
    if (bound === 'background') {
      const moved = session.detachCommands();
      store.setHint(moved > 0 ? 'Sent the running command to the background' : 'No command is running');
      return rerender();
    }
    const actions = reader.current.read(input, key);
    const current = store.getSnapshot().prompt;
    if (current) {
      const ui = promptUi.current?.promptId === current.id ? promptUi.current : initialUi(current);
      const next = promptKey(current, ui, input, key, actions);
      promptUi.current = next;
      if (next.interrupt) session.interrupt();
      return rerender();
    }
    if (bound === 'cycleMode') return session.cycleMode();
    if (bound === 'interrupt') {
      if (!session.interrupt()) candidates.current = [];
      return rerender();
    }
    if (bound === 'quit') {
      if (editor.current.text === '') session.exit();
      return;
    }
    for (const action of actions) {
      const result = applyAction(editor.current, action, {
        history,
        cwd: session.cwd,
        commands: [...SLASH_COMMAND_NAMES, ...(session.commandNames ?? [])],
        submit: (text, shown) => void session.submit(text, shown),
      });
      editor.current = result.state;
      candidates.current = result.candidates ?? openCandidates(candidates.current, result.state);
    }
    rerender();
  });

  return { editor, candidates, promptUi };
}
