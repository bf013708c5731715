import { Box, Static, useApp, useInput } from 'ink';
import { Fragment, useEffect, useReducer, useRef, useSyncExternalStore } from 'react';
import { SLASH_COMMAND_NAMES } from '../../config/commands/builtin_names.js';
import { applyAction } from '../input/apply_action.js';
import { openCandidates } from '../input/complete.js';
import { type EditorState, emptyEditor } from '../input/editor.js';
import type { PromptHistory } from '../input/history.js';
import { DEFAULT_KEYMAP, type Keymap, shownKeys } from '../input/keybindings.js';
import { KeyReader } from '../input/keys.js';
import { renderEditor } from '../input/render_editor.js';
import { initialUi, type PromptUi, promptKey, promptLines } from '../prompt/prompt_state.js';
import { childPanelLines } from '../render/child_line.js';
import { renderEntry, spaceAbove } from '../render/entries.js';
import { activeTheme, type Line } from '../render/style.js';
import { truncateLine } from '../render/width.js';
import type { SessionControls } from '../session/starting.js';
import { todoPanelLines } from '../session/todo_view.js';
import type { TranscriptItem } from '../state/items.js';
import { ChildrenPanel } from './children_panel.js';
import { LinesView } from './lines_view.js';
import { LiveArea } from './live_area.js';
import { BusyLine, StatusLine } from './status_line.js';
import { useResultViews } from './use_result_views.js';
import { useTerminalSize } from './use_terminal.js';

/** Ctrl-C twice within this time exits. */
const EXIT_WINDOW_MS = 2000;
const INPUT_LINES = 8;

function EntryView({ item, width }: { item: TranscriptItem; width: number }) {
  return (
    <Box marginTop={spaceAbove(item)}>
      <LinesView lines={renderEntry(item, width)} />
    </Box>
  );
}

/**
 * The interactive UI. Finished entries go to <Static>: printed once into the scrollback and never
 * rendered again, however long the session. Below them, only what still changes: the live area
 * (kept shorter than the screen), a prompt or the input, and the status line.
 */
export function App({
  session,
  history,
  keymap = DEFAULT_KEYMAP,
}: {
  session: SessionControls;
  history: PromptHistory;
  keymap?: Keymap;
}) {
  const store = session.store;
  const snap = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const { columns: width, rows } = useTerminalSize();
  const app = useApp();
  // Key events can come several per tick, before React re-renders: state lives in refs.
  const editor = useRef<EditorState>(emptyEditor());
  const candidates = useRef<string[]>([]);
  const promptUi = useRef<PromptUi | undefined>(undefined);
  const reader = useRef(new KeyReader(keymap));
  const lastCtrlC = useRef(0);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const views = useResultViews(session);

  useEffect(() => {
    if (snap.exiting) app.exit();
  }, [snap.exiting, app]);

  const prompt = snap.prompt;
  if (prompt && promptUi.current?.promptId !== prompt.id) promptUi.current = initialUi(prompt);

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

  const promptView = prompt && promptUi.current ? promptLines(prompt, promptUi.current, width) : [];
  const inputView: Line[] = prompt
    ? []
    : renderEditor(editor.current, width, {
        prefix: '› ',
        prefixStyle: { color: snap.status.mode === 'plan' ? 'planMode' : 'success', bold: true },
        placeholder: snap.busy
          ? 'Message the agent (it reads it at its next step)'
          : 'Ask lathe to do something… (/help)',
        maxLines: INPUT_LINES,
        cursor: true,
      });
  const suggestions: Line[] =
    !prompt && candidates.current.length > 0
      ? [truncateLine([{ text: `  ${candidates.current.join('  ')}`, style: { color: 'muted' } }], width)]
      : [];
  const todo = snap.todo ? todoPanelLines(snap.todo, 6) : [];
  const agents = childPanelLines(snap.children, snap.childrenOpen, width, 0, '').length;
  const busy = (snap.busy ? 1 : 0) + Math.min(4, snap.queued.length);
  const fixed =
    1 + promptView.length + inputView.length + suggestions.length + todo.length + agents + busy + 2;
  const liveMax = Math.max(3, rows - fixed - 1);

  return (
    <Box flexDirection="column">
      <Static key={snap.staticKey} items={snap.staticItems}>
        {(item) => <EntryView key={item.key} item={item} width={width} />}
      </Static>
      {/* Keyed by the theme: a switch redraws the memoised parts below in its colours. */}
      <Fragment key={activeTheme().name}>
        <LiveArea live={snap.live} width={width} maxLines={liveMax} />
        <ChildrenPanel agents={snap.children} open={snap.childrenOpen} width={width} />
        {todo.length > 0 ? <LinesView lines={todo} /> : null}
        <BusyLine
          busy={prompt && snap.busy ? { ...snap.busy, label: 'Waiting for your answer' } : snap.busy}
          queued={snap.queued}
          width={width}
        />
        <Box marginTop={1} flexDirection="column">
          <LinesView lines={prompt ? promptView : [...inputView, ...suggestions]} />
        </Box>
        <StatusLine status={snap.status} hint={snap.hint} width={width} />
      </Fragment>
    </Box>
  );
}
