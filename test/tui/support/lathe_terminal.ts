import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { FakeModelServer, type ScriptedTurn } from '../../support/fake_model_server.js';
import { tempDir } from '../../support/runtime_fixtures.js';
import { TmuxTerminal } from './tmux.js';

export interface LatheInTerminal {
  term: TmuxTerminal;
  server: FakeModelServer;
  dir: string;
  home: string;
  /** The model requests the server received so far. */
  requests(): FakeModelServer['requests'];
}

/** A repository with these files, in a temp folder. */
export function repo(files: Record<string, string> = {}): string {
  const dir = tempDir('lathe-repo-');
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

/**
 * Starts the fake model server with a script, then `lathe` (the interactive UI) in a tmux
 * terminal pointed at it, and waits for the ready prompt.
 */
export async function startLathe(
  turns: ScriptedTurn[],
  options: {
    dir?: string;
    home?: string;
    args?: string[];
    env?: Record<string, string>;
    size?: { width: number; height: number };
    /** Wait for the ready prompt before returning (the default). */
    waitForPrompt?: boolean;
  } = {},
): Promise<LatheInTerminal> {
  const server = await FakeModelServer.start({ turns });
  const dir = options.dir ?? repo();
  const home = options.home ?? tempDir('lathe-home-');
  const term = TmuxTerminal.start({
    cwd: dir,
    args: ['--model', 'anthropic/claude-sonnet-4-5', ...(options.args ?? [])],
    env: {
      HOME: home,
      LATHE_HOME: home,
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'test-key',
      LATHE_RETRY_BASE_MS: '10',
      NODE_ENV: 'test',
      ...options.env,
    },
    ...options.size,
  });
  if (options.waitForPrompt !== false) await term.waitFor('Ask lathe to do something');
  return { term, server, dir, home, requests: () => server.requests.filter((r) => r.kind === 'model') };
}

/** Leaves the UI as a user does, Ctrl-C twice; resolves to the terminal once lathe has exited. */
export async function leaveWithCtrlC(term: TmuxTerminal): Promise<string> {
  term.press('C-c');
  await term.waitFor('Press Ctrl+C again to exit');
  term.press('C-c');
  return term.waitFor('[lathe exited 0]');
}

/**
 * For a test file: `startLathe`, with every terminal and server it started ended after each
 * test, and the file's tmux server after the last.
 */
export function latheStarter(): typeof startLathe {
  const running: LatheInTerminal[] = [];
  afterEach(async () => {
    for (const lathe of running.splice(0)) {
      lathe.term.kill();
      await lathe.server.close();
    }
  });
  afterAll(() => TmuxTerminal.stopServer());
  return async (...args) => {
    const lathe = await startLathe(...args);
    running.push(lathe);
    return lathe;
  };
}
