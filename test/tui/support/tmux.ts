import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LATHE_BIN } from '../../support/cli.js';
import { tempDir } from '../../support/runtime_fixtures.js';

/** One tmux server per test process, on its own socket: the user's tmux is never touched. */
const SOCKET = `lathe-test-${process.pid}`;
let counter = 0;

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * A tmux server exits with its last session; a test starting the next one at that moment would
 * race it. One idle session keeps the server up until `stopServer`.
 */
let keeper = false;
function keepServer(): void {
  if (keeper) return;
  tmux('new-session', '-d', '-s', 'keeper', 'sleep 3600');
  keeper = true;
}

export interface TerminalOptions {
  cwd: string;
  args?: string[];
  /** The whole environment of lathe (nothing else is inherited: no CI variables, no user settings). */
  env: Record<string, string>;
  width?: number;
  height?: number;
}

/**
 * The built `lathe` in a real terminal: a detached tmux session of a fixed size. Keys go in with
 * `send-keys`; the screen comes back with `capture-pane`. `waitFor` polls the screen, so tests
 * never depend on timing.
 */
export class TmuxTerminal {
  private constructor(readonly name: string) {}

  static start(options: TerminalOptions): TmuxTerminal {
    keepServer();
    const name = `lathe-${++counter}`;
    const script = join(tempDir('lathe-tmux-'), 'run.sh');
    const env = Object.entries({
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      TERM: 'xterm-256color',
      ...options.env,
    })
      .map(([key, value]) => `${key}=${quote(value)}`)
      .join(' ');
    const command = [process.execPath, LATHE_BIN, ...(options.args ?? [])].map(quote).join(' ');
    // After lathe exits the pane stays, showing how it ended, until the test kills it.
    writeFileSync(
      script,
      `cd ${quote(options.cwd)}\nenv -i ${env} ${command}\necho "[lathe exited $?]"\nsleep 600\n`,
    );
    tmux(
      'new-session',
      '-d',
      '-s',
      name,
      '-x',
      String(options.width ?? 100),
      '-y',
      String(options.height ?? 30),
      `sh ${quote(script)}`,
    );
    return new TmuxTerminal(name);
  }

  /** Types text literally (no key names). */
  type(text: string): void {
    tmux('send-keys', '-t', this.name, '-l', text);
  }

  /** Presses keys by tmux name: Enter, Escape, BTab (Shift+Tab), C-c, Up, … */
  press(...keys: string[]): void {
    tmux('send-keys', '-t', this.name, ...keys);
  }

  /** The visible screen. */
  screen(): string {
    return tmux('capture-pane', '-p', '-t', this.name);
  }

  /** The visible screen with its escape sequences (colors, bold). */
  screenWithStyles(): string {
    return tmux('capture-pane', '-p', '-e', '-t', this.name);
  }

  /** The scrollback and the screen. */
  history(): string {
    return tmux('capture-pane', '-p', '-S', '-', '-t', this.name);
  }

  /** Waits until the scrollback (or, with `visible`, the screen) matches; fails with what it shows. */
  async waitFor(
    pattern: string | RegExp,
    options: { timeoutMs?: number; visible?: boolean } = {},
  ): Promise<string> {
    const deadline = Date.now() + (options.timeoutMs ?? 15_000);
    const matches = (text: string) =>
      typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);
    for (;;) {
      const text = options.visible ? this.screen() : this.history();
      if (matches(text)) return text;
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${String(pattern)}; the terminal shows:\n${text}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  kill(): void {
    try {
      tmux('kill-session', '-t', this.name);
    } catch {
      // already gone
    }
  }

  /** Ends this test process's tmux server. */
  static stopServer(): void {
    keeper = false;
    try {
      tmux('kill-server');
    } catch {
      // no server was started
    }
  }
}
