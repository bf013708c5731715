import { Box, Static, useApp } from 'ink';
import { Fragment, useEffect, useSyncExternalStore } from 'react';
import type { PromptHistory } from '../input/history.js';
import { DEFAULT_KEYMAP, type Keymap } from '../input/keybindings.js';
import { renderEditor } from '../input/render_editor.js';
import { initialUi, promptLines } from '../prompt/prompt_state.js';
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
import { useAppKeys } from './use_app_keys.js';
import { useResultViews } from './use_result_views.js';
import { useTerminalSize } from './use_terminal.js';

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
  const views = useResultViews(session);
  const { editor, candidates, promptUi } = useAppKeys(session, history, keymap, views);

  useEffect(() => {
    if (snap.exiting) app.exit();
  }, [snap.exiting, app]);

  const prompt = snap.prompt;
  if (prompt && promptUi.current?.promptId !== prompt.id) promptUi.current = initialUi(prompt);

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
