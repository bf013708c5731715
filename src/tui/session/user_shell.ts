import { spawn } from 'node:child_process';
import type { UiStore } from '../state/store.js';

/** Output kept from a `!command` (its end: that is what says how it went). */
const KEEP_CHARS = 64 * 1024;
const TAIL_LINES = 4;

export interface ShellRun {
  /** Settles with the output (its last KEEP_CHARS) and the exit code (null when killed). */
  done: Promise<{ output: string; exitCode: number | null }>;
  /** The last lines printed so far. */
  tail(): string[];
  kill(): void;
}

/**
 * Runs a command the user typed after `!` in the working folder, in its own process group (so
 * Esc ends all of it), with no input. It is the user's own command: no approval, no sandbox.
 */
export function runUserShell(command: string, cwd: string): ShellRun {
  const child = spawn('bash', ['-c', command], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    env: process.env,
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (output.length > 2 * KEEP_CHARS) output = output.slice(-KEEP_CHARS);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const done = new Promise<{ output: string; exitCode: number | null }>((resolve) => {
    child.on('error', (error) => resolve({ output: `${output}${error.message}\n`, exitCode: 127 }));
    child.on('close', (code) => resolve({ output: output.slice(-KEEP_CHARS), exitCode: code }));
  });
  return {
    done,
    tail: () =>
      output
        .slice(-4096)
        .split('\n')
        .filter((line) => line.trim() !== '')
        .slice(-TAIL_LINES),
    kill: () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    },
  };
}

/** How a `!command` and its output are handed to the model with the next prompt. */
export function shellContext(command: string, output: string, exitCode: number | null): string {
  const tail = output.length > 8000 ? `…\n${output.slice(-8000)}` : output;
  return `I ran \`${command}\` myself (exit code ${exitCode ?? 'none: killed'}). Its output:\n\`\`\`\n${tail.replace(/\s+$/, '')}\n\`\`\``;
}

/**
 * Runs a `!command` with its live tail in the UI, then prints it; resolves with the context the
 * next prompt carries to the model. `started` receives the run, so Esc can stop it.
 */
export async function runShellInUi(
  store: UiStore,
  command: string,
  cwd: string,
  started: (run: ShellRun) => void,
): Promise<string> {
  const startedAt = Date.now();
  const run = runUserShell(command, cwd);
  started(run);
  const show = () => store.setLiveShell({ kind: 'shell', command, startedAt, tail: run.tail() });
  show();
  const timer = setInterval(show, 200);
  const { output, exitCode } = await run.done;
  clearInterval(timer);
  store.setLiveShell(undefined);
  store.add({ kind: 'shell', command, output, exitCode });
  return shellContext(command, output, exitCode);
}
