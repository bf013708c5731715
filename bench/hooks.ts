// What extending lathe costs: `hooks` — a no-op command hook (`true`) on every tool call,
// against the same calls without it (read_file, which starts no process of its own).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime } from '../src/runtime/create_runtime.js';
import { median, printTable } from './stats.js';

const CALLS = 40;

function workspaceWith(hooks: Record<string, unknown> | undefined): string {
  const dir = mkdtempSync(join(tmpdir(), 'lathe-bench-hooks-'));
  writeFileSync(join(dir, 'a.txt'), 'hello\n');
  if (hooks) {
    mkdirSync(join(dir, '.agents'));
    writeFileSync(join(dir, '.agents', 'settings.json'), JSON.stringify({ hooks }));
  }
  return dir;
}

async function perCall(hooks: Record<string, unknown> | undefined): Promise<number> {
  const runtime = createRuntime({
    cwd: workspaceWith(hooks),
    documentsRoot: mkdtempSync(join(tmpdir(), 'lathe-bench-home-')),
    trust: true,
  });
  for (let i = 0; i < 3; i++) await runtime.runTool('read_file', { path: 'a.txt' });
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const start = performance.now();
    const result = await runtime.runTool('read_file', { path: 'a.txt' });
    times.push(performance.now() - start);
    if (result.isError) throw new Error(result.text);
  }
  await runtime.dispose();
  return median(times);
}

/** The floor: a bare `sh -c true` spawned with pipes, what any command hook costs at least. */
async function bareSpawn(): Promise<number> {
  const once = () =>
    new Promise<void>((resolve) => {
      const child = spawn('/bin/sh', ['-c', 'true'], { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.resume();
      child.stderr.resume();
      child.on('close', () => resolve());
    });
  for (let i = 0; i < 3; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const start = performance.now();
    await once();
    times.push(performance.now() - start);
  }
  return median(times);
}

const noop = (event: string) => ({
  [event]: [{ matcher: '', hooks: [{ type: 'command', command: 'true' }] }],
});

export async function benchHooks(): Promise<Array<Record<string, string | number>>> {
  const spawnFloor = await bareSpawn();
  const without = await perCall(undefined);
  const pre = await perCall(noop('PreToolUse'));
  const both = await perCall({ ...noop('PreToolUse'), ...noop('PostToolUse') });
  const row = (name: string, ms: number) => ({
    case: name,
    'median ms per call': Number(ms.toFixed(2)),
    'added ms': Number((ms - without).toFixed(2)),
    calls: CALLS,
  });
  return [
    {
      case: 'bare spawn of sh -c true (the floor)',
      'median ms per call': Number(spawnFloor.toFixed(2)),
      'added ms': '',
      calls: CALLS,
    },
    row('hooks: none', without),
    row('hooks: no-op PreToolUse', pre),
    row('hooks: no-op Pre + PostToolUse', both),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable('extensions: hooks per tool call', await benchHooks());
}
