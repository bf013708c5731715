import { type Key, useStdin, useStdout } from 'ink';
import { useEffect, useRef } from 'react';
import type { KeyActionName } from '../input/keybindings.js';
import type { ViewableResult } from '../session/results.js';
import type { SessionControls } from '../session/starting.js';
import { runPager } from '../viewer/pager.js';
import { ResultViewer } from '../viewer/result_viewer.js';
import { TerminalScreen } from '../viewer/terminal_screen.js';
import { type ByteSource, fileSource, TextLines, textSource } from '../viewer/text_lines.js';
import { sizeOf } from './use_terminal.js';

type OpenView = 'pager' | { viewer: ResultViewer; lines: TextLines; onResize: () => void };

/** The whole result from where it is kept: its file, or (when it was never saved) its text. */
function sourceOf(result: ViewableResult): ByteSource {
  if (result.savedPath) {
    try {
      return fileSource(result.savedPath);
    } catch {
      // The session folder was cleaned up: what was kept of it is all there is.
    }
  }
  return textSource(result.text);
}

/**
 * Ctrl+O and the key that opens the whole result: in the full-screen viewer, or in `$PAGER` when
 * it is set. While a view is open every key is its own, the store holds its changes and Ink's
 * writes wait (TerminalScreen); closing it puts the conversation's screen back as it was.
 * Returns the key handler: true when it took the key.
 */
export function useResultViewer(
  session: SessionControls,
): (input: string, key: Key, bound: KeyActionName | undefined) => boolean {
  const { stdout } = useStdout();
  const { stdin, setRawMode } = useStdin();
  const screen = TerminalScreen.of(stdout);
  const open = useRef<OpenView | undefined>(undefined);
  const { store } = session;

  const close = () => {
    const view = open.current;
    if (!view || view === 'pager') return;
    open.current = undefined;
    stdout.off('resize', view.onResize);
    view.lines.source.close();
    screen.leaveFullScreen();
    store.hold(false);
  };
  // The UI ending with the viewer open leaves the terminal's own screen too.
  useEffect(() => close, []);

  const start = (result: ViewableResult) => {
    store.hold(true);
    const pager = process.env.PAGER?.trim();
    if (pager) {
      open.current = 'pager';
      const input = { release: () => (setRawMode(false), stdin.pause()), takeBack: () => setRawMode(true) };
      void runPager(pager, result, screen, input).then((problem) => {
        open.current = undefined;
        if (problem) store.setHint(problem);
        store.hold(false);
      });
      return;
    }
    const lines = new TextLines(sourceOf(result));
    const viewer = new ResultViewer(lines, result.title, sizeOf(stdout));
    const onResize = () => {
      viewer.resize(sizeOf(stdout));
      screen.write(viewer.frame());
    };
    stdout.on('resize', onResize);
    open.current = { viewer, lines, onResize };
    screen.enterFullScreen();
    screen.write(viewer.frame());
  };

  return (input, key, bound) => {
    const view = open.current;
    if (view === 'pager') return true;
    if (view) {
      if (view.viewer.key(input, key)) screen.write(view.viewer.frame());
      else close();
      return true;
    }
    if (bound === 'expand') session.expandLatest();
    else if (bound === 'viewResult') {
      const result = session.viewableResult();
      if (result) start(result);
    } else return false;
    return true;
  };
}
