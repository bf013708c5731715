import { spawnSync } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { tempDir } from '../support/runtime_fixtures.js';

function runtime() {
  return createRuntime({ cwd: tempDir(), documentsRoot: tempDir('lathe-home-'), env: {}, yolo: true });
}

/** Processes whose command line holds `marker`. */
function processesWith(marker: string): string[] {
  return spawnSync('pgrep', ['-f', marker], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
}

async function eventually(check: () => boolean, timeoutMs = 10_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

describe('commands that misbehave', () => {
  it('a command that prints 1 GB: a clear result, the output on disk, memory bounded', async () => {
    const rt = runtime();
    global.gc?.();
    const before = process.memoryUsage().rss;
    const r = await rt.runTool('execute_command', {
      command: "head -c 1000000000 /dev/zero | tr '\\0' x; echo; echo TAIL",
    });
    const grown = process.memoryUsage().rss - before;
    const path = /Full output: (\S+)/.exec(r.text)?.[1];
    expect(path).toBeDefined();
    expect(statSync(path!).size).toBe(1_000_000_006);
    rmSync(path!);
    expect(r.text.length).toBeLessThan(30_000);
    expect(r.text).toMatch(/TAIL\n\nExit code 0/);
    expect(grown).toBeLessThan(150 * 1024 * 1024);
  }, 120_000);

  it('a command that forks a tree of children: all of it ends at the timeout', async () => {
    const rt = runtime();
    const marker = `9${Date.now() % 100000}.5`;
    const r = await rt.runTool('execute_command', {
      command: `for i in 1 2 3; do (sleep ${marker} &); (bash -c 'sleep ${marker}' &); done; sleep ${marker}`,
      timeout: 1,
    });
    expect(r.text).toMatch(/timeout/);
    expect(await eventually(() => processesWith(`sleep ${marker}`).length === 0)).toBe(true);
  });

  it('a command that ignores SIGTERM is killed all the same', async () => {
    const rt = runtime();
    const marker = `8${Date.now() % 100000}.5`;
    const r = await rt.runTool('execute_command', {
      command: `trap '' TERM; sleep ${marker}; echo never`,
      timeout: 1,
    });
    expect(r.text).toMatch(/Stopped after 1 s \(timeout\)/);
    expect(r.text).not.toMatch(/never/);
    expect(await eventually(() => processesWith(`sleep ${marker}`).length === 0)).toBe(true);
  });

  it('a command that closes its output early still reports its exit', async () => {
    const rt = runtime();
    const r = await rt.runTool('execute_command', {
      command: 'echo first; exec >&- 2>&-; sleep 0.2; exit 4',
    });
    expect(r).toMatchObject({ isError: true, text: 'first\n\nExit code 4.' });
  });

  it('a command that prints invalid UTF-8 gives readable text', async () => {
    const rt = runtime();
    const r = await rt.runTool('execute_command', {
      command: "printf 'start \\377\\376 bad \\303\\050 end\\n'",
    });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/^start \uFFFD\uFFFD bad \uFFFD\( end\n/);
  });

  it('an interrupted run ends the command and its children', async () => {
    const rt = runtime();
    const marker = `7${Date.now() % 100000}.5`;
    const controller = new AbortController();
    const execution = rt.createExecution({ signal: controller.signal });
    execution.add({
      id: 'c1',
      name: 'execute_command',
      input: { command: `(sleep ${marker} &); sleep ${marker}` },
    });
    execution.close();
    setTimeout(() => controller.abort(), 300);
    const results = [];
    for await (const item of execution.results()) results.push(item.result);
    expect(results[0].text).toMatch(/Interrupted|cancelled/);
    expect(await eventually(() => processesWith(`sleep ${marker}`).length === 0)).toBe(true);
  });
});
