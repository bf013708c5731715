// execute_command against a bare spawn of the same command, with and without the sandbox, and
// lathe's peak memory while a command prints 1 GB.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRuntime } from '../src/runtime/create_runtime.js';
import { median, printTable } from './stats.js';

const RUNS = 25;
const COMMAND = 'echo hello';

function bareSpawn(): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', COMMAND], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.on('close', () => resolve());
  });
}

async function timeMedian(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 3; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return median(times);
}

/**
 * Peak RSS (MB) of a fresh process that runs one 1 GB-printing command through execute_command,
 * with `commands.maxOutputBytes` raised past the output (the 64 MB default would stop it).
 */
function peakRssPrinting1GB(): number {
  const home = mkdtempSync(join(tmpdir(), 'lathe-bench-exec-home-'));
  const index = fileURLToPath(new URL('../dist/index.js', import.meta.url));
  const script = `
    const { createRuntime } = await import(${JSON.stringify(index)});
    const rt = createRuntime({ cwd: ${JSON.stringify(tmpdir())}, documentsRoot: ${JSON.stringify(home)}, yolo: true, settings: { commands: { maxOutputBytes: 2000000000 } } });
    const r = await rt.runTool('execute_command', { command: "head -c 1000000000 /dev/zero | tr '\\\\0' x" });
    if (r.isError) throw new Error(r.text);
    console.log(process.resourceUsage().maxRSS);`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  rmSync(home, { recursive: true, force: true });
  if (run.status !== 0) throw new Error(`1 GB run failed: ${run.stderr}`);
  return Number(run.stdout.trim()) / 1024;
}

export async function benchExec(): Promise<Array<Record<string, string | number>>> {
  const cwd = mkdtempSync(join(tmpdir(), 'lathe-bench-exec-'));
  const documentsRoot = mkdtempSync(join(tmpdir(), 'lathe-bench-exec-home-'));
  const sandboxed = createRuntime({ cwd, documentsRoot, yolo: true, env: {} });
  const bare = createRuntime({
    cwd,
    documentsRoot,
    yolo: true,
    env: {},
    settings: { sandbox: { mode: 'off' } },
  });
  const spawnMs = await timeMedian(bareSpawn);
  const offMs = await timeMedian(() => bare.runTool('execute_command', { command: COMMAND }));
  const sandboxMs = await timeMedian(() => sandboxed.runTool('execute_command', { command: COMMAND }));
  const sandboxActive = (await sandboxed.checkSandbox()).active;
  const peak = peakRssPrinting1GB();
  const added = (ms: number) => ms - spawnMs;
  return [
    { case: `bare spawn of bash -c '${COMMAND}'`, 'median ms': spawnMs, 'added ms': '', target: '' },
    { case: 'execute_command, sandbox off', 'median ms': offMs, 'added ms': added(offMs), target: '' },
    {
      case: `execute_command, bubblewrap sandbox${sandboxActive ? '' : ' (NOT ACTIVE here)'}`,
      'median ms': sandboxMs,
      'added ms': added(sandboxMs),
      target: added(sandboxMs) < 30 ? 'ok (< 30 ms added)' : 'OVER 30 ms',
    },
    {
      case: 'peak RSS while a command prints 1 GB (MB)',
      'median ms': '',
      'added ms': '',
      target: `${peak.toFixed(0)} MB: ${peak < 200 ? 'ok (< 200 MB)' : 'OVER 200 MB'}`,
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable(`execute_command overhead, medians of ${RUNS}`, await benchExec());
}
