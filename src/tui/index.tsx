import { render } from 'ink';
import { App } from './components/app.js';
import { preferSmallHeap } from './heap.js';
import { PromptHistory } from './input/history.js';
import { DISABLE_BRACKETED_PASTE, ENABLE_BRACKETED_PASTE } from './input/keys.js';
import { InteractiveSession, type SessionOptions } from './session/controller.js';

export type { ConversationHost, LoadedModel, ResumedSession } from './session/host.js';

export interface InteractiveUiOptions extends SessionOptions {
  /** Where earlier prompts are kept for ↑/↓. */
  historyFile?: string;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  /** A prompt sent once the UI is up, as if typed (`lathe "fix the failing test"`). */
  initialPrompt?: string;
}

/** Runs the interactive UI until the user leaves; resolves with the exit code. */
export async function runInteractiveUi(options: InteractiveUiOptions): Promise<number> {
  preferSmallHeap();
  const stdout = options.stdout ?? process.stdout;
  const session = new InteractiveSession(options);
  const history = new PromptHistory(options.historyFile);
  session.start();
  stdout.write(ENABLE_BRACKETED_PASTE);
  const instance = render(<App session={session} history={history} />, {
    stdout,
    stdin: options.stdin ?? process.stdin,
    exitOnCtrlC: false,
    patchConsole: true,
    maxFps: 60,
  });
  const onTerminate = () => session.exit();
  process.on('SIGTERM', onTerminate);
  process.on('SIGHUP', onTerminate);
  // The model's provider package and the runtime's services start after the first frame.
  setImmediate(() => {
    session.startInBackground();
    if (options.initialPrompt?.trim()) void session.submit(options.initialPrompt);
  });
  try {
    await instance.waitUntilExit();
    await session.closed();
  } finally {
    process.off('SIGTERM', onTerminate);
    process.off('SIGHUP', onTerminate);
    stdout.write(DISABLE_BRACKETED_PASTE);
  }
  const id = session.resumableSessionId;
  if (id) stdout.write(`resume with: lathe --resume ${id}\n`);
  return 0;
}
