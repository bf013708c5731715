// Checkpoints on a large workspace, seen from outside: `lathe -p` (the built command) in a
// generated tree of 20,000 and of 100,000 files (a temp folder, made at each run, never
// committed), against the fake model server in its own process, with checkpoints on and off
// (settings `checkpoints.enabled`), run in turns so the machine's load hits both:
//   - a prompt that changes nothing (one read_file, then a reply): the extra wall time and max RSS
//     checkpoints cost, the extra before the first model request, and the exit after the reply;
//   - a prompt with two commands that write: the extra time of each command's round (from the reply
//     that asks for it to the next request), i.e. the tree snapshot taken before it;
//   - in this process, a tree snapshot after the first one, one file changed, and one with nothing
//     changed (CheckpointStore): wall and processor time (this process's threads and its git calls).
// Each home is reused from run to run, as a returning user's is. LATHE_BENCH_RUNS sets the runs;
// LATHE_BENCH_BIN runs another build (the session rows always measure this checkout's source);
// LATHE_BENCH_BEFORE names an earlier build's dist/bin/lathe.js to run in turns with this one, with
// checkpoints on, for rows of its own (marked "before"), so both see the same load.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CheckpointStore } from '../src/checkpoints/index.js';
import type { ScriptedTurn } from '../test/support/fake_model_server.js';
import { tempDir } from '../test/support/runtime_fixtures.js';
import { latheEnv, startServer, type TimedServer } from './fake_server_process.js';
import { median, printTable } from './stats.js';

const RUNS = Number(process.env.LATHE_BENCH_RUNS) || 5;
// LATHE_BENCH_SIZES: the tree sizes, comma-separated (20,000 and 100,000 unless set).
const SIZES = (process.env.LATHE_BENCH_SIZES ?? '20000,100000').split(',').map(Number);
// LATHE_BENCH_BIN: another build's dist/bin/lathe.js (an earlier one, to compare).
const BIN = process.env.LATHE_BENCH_BIN
  ? resolve(process.env.LATHE_BENCH_BIN)
  : fileURLToPath(new URL('../dist/bin/lathe.js', import.meta.url));
/** GNU time, for the max RSS of a run; without it that column says n/a. */
const TIME = '/usr/bin/time';
const BEFORE = process.env.LATHE_BENCH_BEFORE ? resolve(process.env.LATHE_BENCH_BEFORE) : undefined;
type Build = 'on' | 'off' | 'before';
const BUILDS: Build[] = BEFORE ? ['on', 'off', 'before'] : ['on', 'off'];
type Rows = Array<Record<string, string | number>>;

interface RunTimes {
  wallMs: number;
  rssMb: number;
  firstRequestMs: number;
  exitMs: number;
  /** From each reply that asks for calls to the next request. */
  roundsMs: number[];
}

interface Scenario {
  turns: ScriptedTurn[];
  args: string[];
  expect: string;
}

const READ_ONLY: Scenario = {
  turns: [
    { toolCalls: [{ name: 'read_file', input: { path: 'packages/p0/src/d0/f0.ts' } }] },
    { text: 'Read.' },
  ],
  args: [],
  expect: 'Read.',
};
const TWO_COMMANDS: Scenario = {
  turns: [
    { toolCalls: [{ name: 'execute_command', input: { command: 'date > out1.txt' } }] },
    { toolCalls: [{ name: 'execute_command', input: { command: 'date > out2.txt' } }] },
    { text: 'Ran.' },
  ],
  args: ['--yolo'],
  expect: 'Ran.',
};

/** `files` small source files, 100 a folder, 20 folders a package, and an ignored node_modules. */
function generatedTree(files: number): string {
  const dir = tempDir(`lathe-bench-tree-${files}-`);
  for (let n = 0; n < files; n++) {
    const folder = join(dir, 'packages', `p${Math.floor(n / 2000)}`, 'src', `d${Math.floor(n / 100) % 20}`);
    if (n % 100 === 0) mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `f${n % 100}.ts`), `export const v${n} = ${n};\n`);
  }
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\n');
  mkdirSync(join(dir, 'node_modules', 'dep'), { recursive: true });
  for (let n = 0; n < 1000; n++) writeFileSync(join(dir, 'node_modules', 'dep', `m${n}.js`), `${n}\n`);
  return dir;
}

/** A home for one configuration: checkpoints on, or off by the settings. */
function home(checkpoints: boolean): string {
  const dir = tempDir('lathe-bench-home-');
  if (!checkpoints) {
    mkdirSync(join(dir, 'settings'));
    writeFileSync(
      join(dir, 'settings', 'settings.json'),
      JSON.stringify({ checkpoints: { enabled: false } }),
    );
  }
  return dir;
}

async function timeRun(
  server: TimedServer,
  cwd: string,
  home: string,
  scenario: Scenario,
  bin = BIN,
): Promise<RunTimes> {
  await server.enqueue(scenario.turns);
  server.takeTraffic();
  const rssFile = join(home, 'rss.txt');
  const lathe = [bin, '-p', 'do the task', '--model', 'anthropic/claude-sonnet-4-5', ...scenario.args];
  const [command, args] = existsSync(TIME)
    ? [TIME, ['-f', '%M', '-o', rssFile, process.execPath, ...lathe]]
    : [process.execPath, lathe];
  const spawned = process.hrtime.bigint();
  const child = spawn(command, args, { cwd, env: latheEnv(server, home), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => {
    output += d;
  });
  child.stderr.on('data', (d: Buffer) => {
    output += d;
  });
  const { code, exited } = await new Promise<{ code: number | null; exited: bigint }>((done) =>
    child.on('exit', (code) => done({ code, exited: process.hrtime.bigint() })),
  );
  await new Promise((done) => setTimeout(done, 20));
  if (code !== 0 || !output.includes(scenario.expect)) throw new Error(`lathe -p ended ${code}: ${output}`);
  const traffic = server.takeTraffic().filter((t) => t.path.endsWith('/messages'));
  const requests = traffic.filter((t) => t.traffic === 'request').map((t) => t.at);
  const replies = traffic.filter((t) => t.traffic === 'reply_end').map((t) => t.at);
  const ms = (from: bigint, to: bigint) => Number(to - from) / 1e6;
  const rss = existsSync(rssFile)
    ? Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1)) / 1024
    : NaN;
  rmSync(rssFile, { force: true });
  return {
    wallMs: ms(spawned, exited),
    rssMb: rss,
    firstRequestMs: ms(spawned, requests[0]),
    exitMs: ms(replies.at(-1) ?? exited, exited),
    roundsMs: replies.slice(0, -1).map((reply, i) => ms(reply, requests[i + 1])),
  };
}

/**
 * Medians of a scenario with checkpoints on and off (and the earlier build, when named), in
 * turns whose order changes from run to run, after one warm-up run of each.
 */
async function onAndOff(server: TimedServer, tree: string, scenario: Scenario) {
  const homes: Record<Build, string> = { on: home(true), off: home(false), before: home(true) };
  const times: Record<Build, RunTimes[]> = { on: [], off: [], before: [] };
  const run = (key: Build) => timeRun(server, tree, homes[key], scenario, key === 'before' ? BEFORE : BIN);
  for (const key of BUILDS) await run(key);
  for (let i = 0; i < RUNS; i++)
    for (const key of i % 2 ? [...BUILDS].reverse() : BUILDS) times[key].push(await run(key));
  const of = (key: Build, pick: (t: RunTimes) => number) => median(times[key].map(pick));
  const extra = (pick: (t: RunTimes) => number, key: Build = 'on') => of(key, pick) - of('off', pick);
  return { of, extra };
}

/** Processor milliseconds of this process's threads and of its children that ended (git). */
function cpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  // utime, stime, cutime, cstime: fields 14-17 of stat, in clock ticks (100 a second).
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) * 10;
}

/**
 * Tree snapshots after the first in one process, in turns: one file changed before it, and
 * nothing changed (medians of wall and processor time).
 */
async function snapshotInSession(tree: string): Promise<Record<string, number>> {
  const store = new CheckpointStore({
    workspace: tree,
    documentsRoot: tempDir('lathe-bench-home-'),
    keep: 1000,
    maxAgeDays: 30,
  });
  await store.take({ kind: 'call', label: 'first' });
  const times = {
    session: [] as number[],
    sessionCpu: [] as number[],
    same: [] as number[],
    sameCpu: [] as number[],
  };
  const measure = async (label: string, wall: number[], cpu: number[]) => {
    const [start, startCpu] = [performance.now(), cpuMs()];
    await store.take({ kind: 'call', label });
    wall.push(performance.now() - start);
    cpu.push(cpuMs() - startCpu);
  };
  for (let i = 0; i < RUNS + 1; i++) {
    writeFileSync(join(tree, 'packages/p0/src/d1/f1.ts'), `changed ${i}\n`);
    await measure(`run ${i}`, times.session, times.sessionCpu);
    await measure(`same ${i}`, times.same, times.sameCpu);
  }
  await store.close();
  return Object.fromEntries(Object.entries(times).map(([key, values]) => [key, median(values.slice(1))]));
}

const verdict = (value: number, limit: number) => (value <= limit ? `ok (≤ ${limit})` : `OVER ${limit}`);

export async function benchCheckpointsScale(): Promise<Rows> {
  if (!existsSync(BIN)) throw new Error('dist/ is missing: run `npm run build` first');
  const server = await startServer({ traffic: true });
  const columns = new Map<number, Record<string, number>>();
  try {
    for (const size of SIZES) {
      const tree = generatedTree(size);
      const read = await onAndOff(server, tree, READ_ONLY);
      const commands = await onAndOff(server, tree, TWO_COMMANDS);
      columns.set(size, {
        offWall: read.of('off', (t) => t.wallMs),
        wall: read.extra((t) => t.wallMs),
        rss: read.extra((t) => t.rssMb),
        first: read.extra((t) => t.firstRequestMs),
        exit: read.of('on', (t) => t.exitMs),
        exitExtra: read.extra((t) => t.exitMs),
        exitCommands: commands.of('on', (t) => t.exitMs),
        exitCommandsExtra: commands.extra((t) => t.exitMs),
        firstCommand: commands.extra((t) => t.roundsMs[0]),
        secondCommand: commands.extra((t) => t.roundsMs[1]),
        ...(BEFORE
          ? {
              exitBefore: read.of('before', (t) => t.exitMs),
              exitCommandsBefore: commands.of('before', (t) => t.exitMs),
              exitCommandsExtraBefore: commands.extra((t) => t.exitMs, 'before'),
              firstCommandBefore: commands.extra((t) => t.roundsMs[0], 'before'),
              secondCommandBefore: commands.extra((t) => t.roundsMs[1], 'before'),
              rssBefore: read.extra((t) => t.rssMb, 'before'),
            }
          : {}),
        ...(await snapshotInSession(tree)),
      });
      rmSync(tree, { recursive: true, force: true });
    }
  } finally {
    server.close();
  }
  const row = (name: string, key: string, target?: number): Record<string, string | number> => {
    const cells: Record<string, string | number> = { case: name };
    for (const size of SIZES)
      cells[`${size.toLocaleString('en-US')} files`] = columns.get(size)?.[key] ?? NaN;
    const last = columns.get(SIZES.at(-1) ?? 0)?.[key] ?? NaN;
    cells['target (100,000)'] = target === undefined ? '' : verdict(last, target);
    return cells;
  };
  return [
    row('read-only prompt, checkpoints off: wall ms', 'offWall'),
    row('read-only prompt: extra wall ms with checkpoints on', 'wall', 50),
    row('read-only prompt: extra max RSS MB with checkpoints on', 'rss', 20),
    row('read-only prompt: extra ms to the first model request', 'first', 5),
    row('read-only prompt: exit ms after the last reply (on)', 'exit'),
    row('read-only prompt: exit after the last reply, extra ms with checkpoints on', 'exitExtra', 50),
    row('two commands: exit ms after the last reply (on)', 'exitCommands'),
    row('two commands: exit after the last reply, extra ms with checkpoints on', 'exitCommandsExtra', 50),
    row("two commands: the first command's round, extra ms (first snapshot in a process)", 'firstCommand'),
    row(
      "two commands: the second command's round, extra ms (snapshot after the first)",
      'secondCommand',
      400,
    ),
    ...(BEFORE
      ? [
          row('before: read-only prompt: exit ms after the last reply (on)', 'exitBefore'),
          row('before: two commands: exit ms after the last reply (on)', 'exitCommandsBefore'),
          row('before: two commands: exit after the last reply, extra ms', 'exitCommandsExtraBefore'),
          row("before: two commands: the first command's round, extra ms", 'firstCommandBefore'),
          row("before: two commands: the second command's round, extra ms", 'secondCommandBefore'),
          row('before: read-only prompt: extra max RSS MB with checkpoints on', 'rssBefore'),
        ]
      : []),
    row('in a session: snapshot after the first, one file changed, ms', 'session', 400),
    row('in a session: the same, processor ms (with git)', 'sessionCpu'),
    row('in a session: snapshot after the first, nothing changed, ms', 'same', 400),
    row('in a session: the same, processor ms (with git)', 'sameCpu'),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable(`checkpoints on 20,000 and 100,000 files, medians of ${RUNS}`, await benchCheckpointsScale());
}
