import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { createElement } from 'react';
import { globalMcpSettingsPath, globalSettingsPath } from '../../../src/config/paths.js';
import type { SettingsLayer } from '../../../src/config/types.js';
import { createRuntime } from '../../../src/runtime/create_runtime.js';
import {
  attachRuntimeServices,
  loadResumePoint,
  openSessionLog,
  setUpModel,
} from '../../../src/sdk/run_setup.js';
import { findSession } from '../../../src/session/catalog.js';
import { App } from '../../../src/tui/components/app.js';
import { PromptHistory } from '../../../src/tui/input/history.js';
import { stripAnsi } from '../../../src/tui/render/style.js';
import { InteractiveSession } from '../../../src/tui/session/controller.js';
import type { ConversationHost } from '../../../src/tui/session/host.js';
import { StartingSession } from '../../../src/tui/session/starting.js';
import { freshStatus, UiStore } from '../../../src/tui/state/store.js';
import { FakeModelServer, type ScriptedTurn } from '../../support/fake_model_server.js';
import { tempDir } from '../../support/runtime_fixtures.js';
import { repo } from './lathe_terminal.js';

export interface AppUnderTest {
  readonly session: InteractiveSession;
  /** Starts the session behind a prompt drawn with `startLater`. */
  ready(): void;
  server: FakeModelServer;
  dir: string;
  home: string;
  /** The whole output so far (the printed conversation and the live frame), without ANSI. */
  frame(): string;
  /** The same with its ANSI codes, as the terminal gets it. */
  rawFrame(): string;
  /** Writes to the app's input as a terminal would (keys, text, escape sequences). */
  write(data: string): void;
  /** Types text and presses Enter, as two writes. */
  submit(text: string): Promise<void>;
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<string>;
  requests(): FakeModelServer['requests'];
  /** Narrows or widens the terminal, as a window resize does. */
  resize(columns: number): void;
  close(): Promise<void>;
}

export const KEYS = {
  enter: '\r',
  escape: '\x1b',
  up: '\x1b[A',
  down: '\x1b[B',
  shiftTab: '\x1b[Z',
  ctrlC: '\x03',
  ctrlO: '\x0f',
  ctrlB: '\x02',
};

/**
 * The interactive app rendered with ink-testing-library, on a real session: a runtime over a
 * temp repository and the fake model server as the model.
 */
export async function renderApp(
  turns: ScriptedTurn[],
  options: {
    files?: Record<string, string>;
    /** A workspace made beforehand, instead of a temp folder holding `files`. */
    dir?: string;
    settings?: SettingsLayer;
    features?: string[];
    strictPlanMode?: boolean;
    /** Start what a runtime brings along (MCP servers, the sandbox probe) as lathe does. */
    services?: boolean;
    /** MCP servers for the global MCP file; they are started as lathe starts them. */
    mcpServers?: Record<string, unknown>;
    /** Draw the prompt first and start the session only on `ready()`, as lathe does after its first frame. */
    startLater?: boolean;
    /** The user's settings file (`$LATHE_HOME/settings/settings.json`), as written. */
    userSettings?: Record<string, unknown>;
    /** The fake server counts each request's tokens and reports them as its input tokens. */
    countTokens?: boolean;
  } = {},
): Promise<AppUnderTest> {
  const server = await FakeModelServer.start({ turns, countTokens: options.countTokens });
  const dir = options.dir ?? repo(options.files);
  const home = tempDir('lathe-home-');
  if (options.userSettings) {
    mkdirSync(join(home, 'settings'), { recursive: true });
    writeFileSync(globalSettingsPath(home), JSON.stringify(options.userSettings));
  }
  if (options.mcpServers) {
    mkdirSync(join(home, 'settings'), { recursive: true });
    writeFileSync(globalMcpSettingsPath(home), JSON.stringify({ mcpServers: options.mcpServers }));
  }
  const host: ConversationHost = {
    createRuntime: ({ sessionId, profile, mode, askUser }) =>
      createRuntime({
        cwd: dir,
        documentsRoot: home,
        sessionId,
        profile,
        mode,
        features: options.features,
        settings: options.settings,
        strictPlanMode: options.strictPlanMode,
        askUser,
        env: { ...process.env, NODE_ENV: 'test', LATHE_FEATURES: '' },
      }),
    defaultModel: () => 'anthropic/claude-sonnet-4-5',
    loadModel: (runtime, name) =>
      setUpModel(runtime, name, { baseUrl: server.baseUrl('anthropic'), apiKey: 'test-key' }),
    openLog: openSessionLog,
    findSession: (runtime, id) => {
      const found = findSession(runtime.documentsRoot, runtime.workspace, id);
      return found && loadResumePoint(found, runtime.workspace);
    },
    attach:
      options.services || options.mcpServers ? attachRuntimeServices : (runtime) => () => runtime.dispose(),
  };
  let session: InteractiveSession | undefined;
  let app: ReturnType<typeof render>;
  let startLater = () => {};
  let leave = () => {};
  if (options.startLater) {
    const store = new UiStore(freshStatus({ starting: true }));
    const starting = new StartingSession(store, dir);
    app = render(createElement(App, { session: starting, history: new PromptHistory() }));
    startLater = () => {
      session = new InteractiveSession({ host, store });
      session.start();
      session.startInBackground();
      starting.attach(session);
    };
    leave = () => starting.exit();
  } else {
    session = new InteractiveSession({ host });
    session.start();
    app = render(createElement(App, { session, history: new PromptHistory() }));
    session.startInBackground();
  }
  const frame = () => stripAnsi(app.lastFrame() ?? '');
  const waitFor = async (text: string | RegExp, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const shown = frame();
      if (typeof text === 'string' ? shown.includes(text) : text.test(shown)) return shown;
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${String(text)}; the app shows:\n${shown}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const tick = () => new Promise((resolve) => setTimeout(resolve, 30));
  return {
    get session() {
      if (!session) throw new Error('the session has not started: call ready() first');
      return session;
    },
    ready: () => startLater(),
    server,
    dir,
    home,
    frame,
    rawFrame: () => app.lastFrame() ?? '',
    write: (data) => app.stdin.write(data),
    submit: async (text) => {
      app.stdin.write(text);
      await tick();
      app.stdin.write(KEYS.enter);
      await tick();
    },
    waitFor,
    requests: () => server.requests.filter((r) => r.kind === 'model'),
    resize: (columns) => {
      Object.defineProperty(app.stdout, 'columns', { get: () => columns, configurable: true });
      app.stdout.emit('resize');
    },
    close: async () => {
      if (session) session.exit();
      else leave();
      app.unmount();
      await server.close();
    },
  };
}
