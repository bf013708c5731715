import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRuntime, type RuntimeOptions } from '../../src/runtime/create_runtime.js';
import { eventually, processesCarrying, uniqueToken } from '../support/processes.js';
import { testNeeds } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';

function runtime(options: RuntimeOptions = {}) {
  return createRuntime({
    cwd: tempDir(),
    documentsRoot: tempDir('lathe-home-'),
    env: {},
    yolo: true,
    ...options,
  });
}

const MB = 1024 * 1024;

describe('commands that misbehave', () => {
  testNeeds('bwrap')(
    'a command that prints without end: saved up to the cap (64 MB by default), then stopped',
    async () => {
      const rt = runtime();
      global.gc?.();
      const before = process.memoryUsage().rss;
      const r = await rt.runTool('execute_command', { command: 'cat /dev/zero; echo never' });
      const grown = process.memoryUsage().rss - before;
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(
        /Output cut at 64 MB \(settings commands\.maxOutputBytes\); the command was stopped\. Saved output: (\S+)$/,
      );
      const path = /Saved output: (\S+)$/.exec(r.text)![1];
      expect(statSync(path).size).toBe(64 * MB);
      rmSync(path);
      expect(r.text.length).toBeLessThan(30_000);
      expect(grown).toBeLessThan(150 * MB);
    },
    120_000,
  );

  testNeeds('bwrap')(
    'the cap is a setting, and a command in the background is stopped at it too',
    async () => {
      const rt = runtime({ settings: { commands: { maxOutputBytes: MB } } });
      const foreground = await rt.runTool('execute_command', { command: 'yes lathe' });
      expect(foreground.text).toMatch(/Output cut at 1 MB .*; the command was stopped/);
      expect(statSync(/Saved output: (\S+)$/.exec(foreground.text)![1]).size).toBe(MB);
      const started = await rt.runTool('execute_command', {
        command: 'cat /dev/zero',
        run_in_background: true,
      });
      const { id, outputPath } = started.data as { id: string; outputPath: string };
      expect(await eventually(() => rt.runningBackgroundWork().length === 0)).toBe(true);
      expect(statSync(outputPath).size).toBe(MB);
      expect((await rt.runTool('kill_command', { id })).text).toMatch(
        /had already ended \(exit code SIGTERM; output cut at 1 MB \(settings commands\.maxOutputBytes\), so it was stopped\)/,
      );
    },
  );

  it('a wrong cap in the settings is reported and the default kept', () => {
    const rt = runtime({ settings: { commands: { maxOutputBytes: -5 } } });
    expect(rt.warnings).toEqual([
      'command line: commands.maxOutputBytes must be a positive whole number of bytes',
    ]);
    expect(rt.settings.commands.maxOutputBytes).toBe(64 * MB);
  });

  testNeeds('bwrap')('a command that forks a tree of children: all of it ends at the timeout', async () => {
    const rt = runtime();
    const token = uniqueToken('tree');
    const r = await rt.runTool('execute_command', {
      command: `export MARK=${token}; for i in 1 2 3; do (sleep 90 &); (bash -c 'sleep 90' &); done; sleep 90`,
      timeout: 1,
    });
    expect(r.text).toMatch(/timeout/);
    expect(await eventually(() => processesCarrying(token).length === 0)).toBe(true);
  });

  testNeeds('bwrap')('a command that ignores SIGTERM is killed all the same', async () => {
    const rt = runtime();
    const token = uniqueToken('ignores-term');
    const r = await rt.runTool('execute_command', {
      command: `export MARK=${token}; trap '' TERM; sleep 90; echo never`,
      timeout: 1,
    });
    expect(r.text).toMatch(/Stopped after 1 s \(timeout\)/);
    expect(r.text).not.toMatch(/never/);
    expect(await eventually(() => processesCarrying(token).length === 0)).toBe(true);
  });

  testNeeds('bwrap')('a command that closes its output early still reports its exit', async () => {
    const rt = runtime();
    const r = await rt.runTool('execute_command', {
      command: 'echo first; exec >&- 2>&-; sleep 0.2; exit 4',
    });
    expect(r).toMatchObject({ isError: true, text: 'first\n\nExit code 4.' });
  });

  testNeeds('bwrap')('a command that prints invalid UTF-8 gives readable text', async () => {
    const rt = runtime();
    const r = await rt.runTool('execute_command', {
      command: "printf 'start \\377\\376 bad \\303\\050 end\\n'",
    });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/^start \uFFFD\uFFFD bad \uFFFD\( end\n/);
  });

  testNeeds('bwrap')('an interrupted run ends the command and its children', async () => {
    const rt = runtime();
    const token = uniqueToken('interrupted');
    const controller = new AbortController();
    const execution = rt.createExecution({ signal: controller.signal });
    execution.add({
      id: 'c1',
      name: 'execute_command',
      input: { command: `export MARK=${token}; (sleep 90 &); sleep 90` },
    });
    execution.close();
    // Interrupt once both sleeps run, not after a guessed delay.
    void eventually(() => processesCarrying(token).length === 2).then(() => controller.abort());
    const results = [];
    for await (const item of execution.results()) results.push(item.result);
    expect(results[0].text).toMatch(/^Interrupted; the whole process tree was ended\./m);
    expect(await eventually(() => processesCarrying(token).length === 0)).toBe(true);
  });
});

/** Processes whose command line holds `text` (for a process that dropped its environment). */
function processesNamed(text: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'latin1').replaceAll('\0', ' ').includes(text))
        found.push(Number(entry));
    } catch {
      // gone
    }
  }
  return found;
}

// Without the sandbox's PID namespace, only lathe itself can find what a command left behind.
describe('processes that leave the command (no sandbox)', () => {
  const bare = () => runtime({ settings: { sandbox: { mode: 'off' } } });
  /** Waits (in the shell) until the daemon says it has left the group, so the test does not race it. */
  const untilReady = 'while [ ! -e ready ]; do sleep 0.05; done';

  it('a daemon started with setsid does not hold the call open, and is ended with the command', async () => {
    const token = uniqueToken('setsid');
    const r = await bare().runTool('execute_command', {
      command: `export MARK=${token}; setsid bash -c 'touch ready; exec sleep 300' & ${untilReady}; echo started`,
    });
    expect(r).toMatchObject({ isError: false, text: 'started\n\nExit code 0.' });
    expect(await eventually(() => processesCarrying(token).length === 0)).toBe(true);
  });

  it('a double fork that escaped the group is ended at the timeout', async () => {
    const token = uniqueToken('double-fork');
    const r = await bare().runTool('execute_command', {
      command: `export MARK=${token}; (setsid bash -c 'sleep 300; echo late' &); sleep 300`,
      timeout: 1,
    });
    expect(r.text).toMatch(/Stopped after 1 s \(timeout\)/);
    expect(r.text).not.toMatch(/late/);
    expect(await eventually(() => processesCarrying(token).length === 0)).toBe(true);
  });

  it('a process that dropped its environment and keeps the output open: the call still returns', async () => {
    const name = `${3000 + Math.floor(Math.random() * 1000)}.${process.pid}`;
    try {
      const r = await bare().runTool('execute_command', {
        command: `setsid env -i bash -c 'touch ready; exec sleep ${name}' & ${untilReady}; echo started`,
      });
      expect(r).toMatchObject({ isError: false, text: 'started\n\nExit code 0.' });
    } finally {
      for (const pid of processesNamed(`sleep ${name}`)) process.kill(pid, 'SIGKILL');
    }
  });
});
