import { render } from 'ink';
import type { Mode, Profile } from '../config/types.js';
import { App } from './components/app.js';
import { preferSmallHeap } from './heap.js';
import { PromptHistory } from './input/history.js';
import { DEFAULT_KEYMAP, loadKeybindings, setActiveKeymap } from './input/keybindings.js';
import { DISABLE_BRACKETED_PASTE, ENABLE_BRACKETED_PASTE } from './input/keys.js';
import { setTheme } from './render/style.js';
import type { InteractiveSession, SessionOptions } from './session/controller.js';
import { StartingSession } from './session/starting.js';
import { freshStatus, UiStore } from './state/store.js';
import { TerminalScreen } from './viewer/terminal_screen.js';

export type { SessionOptions } from './session/controller.js';
export type { ConversationHost, LoadedModel, ResumedSession } from './session/host.js';

export interface InteractiveUiOptions {
  /** What the first frame shows, before the session is ready: the flags' model, mode and profile. */
  preview: { cwd: string; modelName?: string; mode?: Mode; profile?: Profile };
  /**
   * The session's options. Called after the first frame: the runtime, the agent and the model's
   * modules load here, behind a prompt that already takes keys. What it throws ends the UI (its
   * frame is cleared) and comes out of `runInteractiveUi`, for the caller to report.
   */
  prepare(): Promise<SessionOptions>;
  /** Where earlier prompts are kept for ↑/↓. */
  historyFile?: string;
  /** The user's keybindings file (docs/tui.md); without one, the default keys. */
  keybindingsFile?: string;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  /** A prompt sent once the UI is up, as if typed (`lathe "fix the failing test"`). */
  initialPrompt?: string;
}

/** Runs the interactive UI until the user leaves; resolves with the exit code. */
export async function runInteractiveUi(options: InteractiveUiOptions): Promise<number> {
  preferSmallHeap();
  const stdout = options.stdout ?? process.stdout;
  const { preview } = options;
  const store = new UiStore(
    freshStatus({ model: preview.modelName, mode: preview.mode, profile: preview.profile, starting: true }),
  );
  const starting = new StartingSession(store, preview.cwd);
  const history = new PromptHistory(options.historyFile);
  const { keymap, problems } = options.keybindingsFile
    ? loadKeybindings(options.keybindingsFile)
    : { keymap: DEFAULT_KEYMAP, problems: [] };
  setActiveKeymap(keymap);
  for (const problem of problems) store.add({ kind: 'notice', tone: 'warn', text: problem });
  stdout.write(ENABLE_BRACKETED_PASTE);
  // Ink writes through the screen, which holds its writes while a full-screen view is open.
  const screen = new TerminalScreen(stdout);
  const instance = render(<App session={starting} history={history} keymap={keymap} />, {
    stdout: screen.forInk,
    stdin: options.stdin ?? process.stdin,
    exitOnCtrlC: false,
    patchConsole: true,
    maxFps: 60,
  });
  const onTerminate = () => starting.exit();
  process.on('SIGTERM', onTerminate);
  process.on('SIGHUP', onTerminate);
  const started = startSession(options, store, starting).catch((error: unknown) => {
    // The UI goes, leaving the terminal to the error line.
    instance.clear();
    instance.unmount();
    throw error;
  });
  let session: InteractiveSession | undefined;
  try {
    await instance.waitUntilExit();
    session = await started;
    await session?.closed();
  } finally {
    process.off('SIGTERM', onTerminate);
    process.off('SIGHUP', onTerminate);
    screen.leaveFullScreen();
    stdout.write(DISABLE_BRACKETED_PASTE);
  }
  const id = session?.resumableSessionId;
  if (id) stdout.write(`resume with: lathe --resume ${id}\n`);
  return 0;
}

/**
 * After the first frame: the session's modules load and it starts (its model's provider package
 * and its runtime's services, MCP servers and the sandbox probe, in the background), then takes
 * over the prompt.
 */
async function startSession(
  options: InteractiveUiOptions,
  store: UiStore,
  starting: StartingSession,
): Promise<InteractiveSession | undefined> {
  await new Promise((resolve) => setImmediate(resolve));
  const sessionOptions = await options.prepare();
  const { InteractiveSession } = await import('./session/controller.js');
  if (starting.exited) return undefined;
  const session = new InteractiveSession({ ...sessionOptions, store });
  setTheme(session.runtime.settings.theme);
  session.start();
  session.startInBackground();
  starting.attach(session, options.initialPrompt);
  return session;
}
