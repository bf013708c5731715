import type { Key } from 'ink';
import { sizeOf } from '../components/use_terminal.js';
import type { KeyActionName } from '../input/keybindings.js';
import type { ViewableResult } from '../session/results.js';
import type { SessionControls } from '../session/starting.js';
import { runPager, type TerminalInput } from './pager.js';
import { ResultViewer } from './result_viewer.js';
import { TerminalScreen } from './terminal_screen.js';
import { type ByteSource, fileSource, TextLines, textSource } from './text_lines.js';

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
 */
export class ResultViews {
  private open?: OpenView;
  private readonly screen: TerminalScreen;

  constructor(
    private readonly session: SessionControls,
    private readonly stdout: NodeJS.WriteStream,
    private readonly input: TerminalInput,
  ) {
    this.screen = TerminalScreen.of(stdout);
  }

  /** Takes the keys of an open view, Ctrl+O and the viewer's key; false for any other key. */
  key(input: string, key: Key, bound: KeyActionName | undefined): boolean {
    const view = this.open;
    if (view === 'pager') return true;
    if (view) {
      if (view.viewer.key(input, key)) this.screen.write(view.viewer.frame());
      else this.close();
      return true;
    }
    if (bound === 'expand') this.session.expandLatest();
    else if (bound === 'viewResult') {
      const result = this.session.viewableResult();
      if (result) this.start(result);
    } else return false;
    return true;
  }

  /** Closes the viewer, the conversation's screen back as it was. */
  close(): void {
    const view = this.open;
    if (!view || view === 'pager') return;
    this.open = undefined;
    this.stdout.off('resize', view.onResize);
    view.lines.source.close();
    this.screen.leaveFullScreen();
    this.session.store.hold(false);
  }

  private start(result: ViewableResult): void {
    const { store } = this.session;
    store.hold(true);
    const pager = process.env.PAGER?.trim();
    if (pager) {
      this.open = 'pager';
      void runPager(pager, result, this.screen, this.input).then((problem) => {
        this.open = undefined;
        if (problem) store.setHint(problem);
        store.hold(false);
      });
      return;
    }
    const lines = new TextLines(sourceOf(result));
    const viewer = new ResultViewer(lines, result.title, sizeOf(this.stdout));
    const onResize = () => {
      viewer.resize(sizeOf(this.stdout));
      this.screen.write(viewer.frame());
    };
    this.stdout.on('resize', onResize);
    this.open = { viewer, lines, onResize };
    this.screen.enterFullScreen();
    this.screen.write(viewer.frame());
  }
}
