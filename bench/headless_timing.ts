// `lathe -p` seen from outside, against the fake model server in its own process:
//   first request — from spawning the command to its first model request reaching the server;
//   exit          — from the server handing over the final reply's last byte to the process exit.
// Three scenarios: `hello` (one reply) and `work` (tool calls over five turns, then a reply), each
// a first run in a fresh git repository with a fresh LATHE_HOME; and `hello again`, a second run
// in hello's folder and home, as a returning user starts lathe.
// To compare with an earlier build, point LATHE_BENCH_BASELINE at its dist/bin/lathe.js: the
// two builds then run interleaved, run by run, so a change in the machine's load hits both.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScriptedTurn } from '../test/support/fake_model_server.js';
import { latheEnv, startServer, type TimedServer, type Traffic } from './fake_server_process.js';
import { median, printTable } from './stats.js';

const RUNS = Number(process.env.LATHE_BENCH_RUNS) || 11;
const BIN = fileURLToPath(new URL('../dist/bin/lathe.js', import.meta.url));
const TARGET_FIRST_REQUEST_MS = 200;
const TARGET_EXIT_MS = 30;

export interface Scenario {
  name: string;
  prompt: string;
  args: string[];
  files: Record<string, string>;
  turns: ScriptedTurn[];
  /** Text the final output must hold: a run that went wrong is not timed. */
  expect: string;
  /** Runs in the folder and home of the build's last run of the scenario before it. */
  again?: boolean;
}

export const SCENARIOS: Scenario[] = [
  { name: 'hello', prompt: 'hi', args: [], files: {}, turns: [{ text: 'Hello!' }], expect: 'Hello!' },
  {
    name: 'hello again',
    prompt: 'hi',
    args: [],
    files: {},
    turns: [{ text: 'Hello!' }],
    expect: 'Hello!',
    again: true,
  },
  {
    name: 'work',
    prompt: 'bump the version and show the file',
    args: ['--approve', 'edit'],
    files: {
      'src/config.ts': 'export const VERSION = "1.0";\n',
      'src/main.ts': 'import { VERSION } from "./config";\nconsole.log(VERSION);\n',
    },
    turns: [
      { toolCalls: [{ name: 'list_files', input: { recursive: true } }] },
      {
        toolCalls: [
          { name: 'read_file', input: { path: 'src/config.ts' } },
          { name: 'read_file', input: { path: 'src/main.ts' } },
        ],
      },
      { toolCalls: [{ name: 'search_files', input: { regex: 'VERSION' } }] },
      {
        toolCalls: [
          { name: 'edit_file', input: { path: 'src/config.ts', old_string: '"1.0"', new_string: '"2.0"' } },
        ],
      },
      { toolCalls: [{ name: 'execute_command', input: { command: 'cat src/config.ts' } }] },
      { text: 'Bumped VERSION to 2.0.' },
    ],
    expect: 'Bumped VERSION to 2.0.',
  },
];

export interface RunTimes {
  firstRequestMs: number;
  /** lathe's CPU time up to its first request: what the machine's load does not change. */
  firstRequestCpuMs: number;
  exitMs: number;
  /** From spawning the command to its exit. */
  totalMs: number;
  /** The longest from a reply's end to the next request: a round of tool calls. */
  slowestRoundMs: number;
}

/** A git repository with the files committed, as lathe usually finds its working folder. */
function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'lathe-bench-headless-'));
  for (const [path, text] of Object.entries({ 'README.md': '# bench\n', ...files })) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=bench@lathe', '-c', 'user.name=bench', ...args], {
      cwd: dir,
      stdio: 'ignore',
    });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'start');
  return dir;
}

const isModelRequest = (t: Traffic) => t.path.endsWith('/messages');

/** Where each build last ran a scenario that is not run again: the folder and the home. */
const lastPlace = new Map<string, { cwd: string; home: string }>();

export async function timeRun(bin: string, scenario: Scenario, server: TimedServer): Promise<RunTimes> {
  await server.enqueue(scenario.turns);
  server.takeTraffic();
  const reused = scenario.again ? lastPlace.get(bin) : undefined;
  if (scenario.again && !reused) throw new Error(`${scenario.name}: no earlier run to run again`);
  const place = reused ?? {
    cwd: workspace(scenario.files),
    home: mkdtempSync(join(tmpdir(), 'lathe-bench-home-')),
  };
  lastPlace.set(bin, place);
  const { cwd } = place;
  const env = latheEnv(server, place.home);
  const args = [bin, '-p', scenario.prompt, '--model', 'anthropic/claude-sonnet-4-5', ...scenario.args];
  const spawned = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid !== undefined) server.watch(child.pid);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d;
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d;
  });
  const exit = new Promise<{ code: number | null; exited: bigint }>((done) =>
    child.on('exit', (code) => done({ code, exited: process.hrtime.bigint() })),
  );
  const closed = new Promise((done) => child.on('close', done));
  const { code, exited } = await exit;
  await closed;
  // The server's last messages may still be on their way over IPC.
  await new Promise((done) => setTimeout(done, 20));
  const traffic = server.takeTraffic().filter(isModelRequest);
  if (code !== 0 || !stdout.includes(scenario.expect))
    throw new Error(`${scenario.name} with ${bin} ended ${code}: ${stdout}${stderr}`);
  const first = traffic.find((t) => t.traffic === 'request');
  const lastReply = traffic.filter((t) => t.traffic === 'reply_end').at(-1);
  if (!first || !lastReply) throw new Error(`${scenario.name}: the server saw no model request`);
  const ms = (from: bigint, to: bigint) => Number(to - from) / 1e6;
  const requests = traffic.filter((t) => t.traffic === 'request');
  const rounds = traffic
    .filter((t) => t.traffic === 'reply_end')
    .flatMap((end) => {
      const next = requests.find((r) => r.at > end.at);
      return next ? [ms(end.at, next.at)] : [];
    });
  return {
    slowestRoundMs: Math.max(0, ...rounds),
    firstRequestMs: ms(spawned, first.at),
    firstRequestCpuMs: first.cpuMs ?? Number.NaN,
    exitMs: ms(lastReply.at, exited),
    totalMs: ms(spawned, exited),
  };
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

export async function benchHeadlessTiming(): Promise<Array<Record<string, string | number>>> {
  if (!existsSync(BIN)) throw new Error('dist/ is missing: run `npm run build` first');
  const baseline = process.env.LATHE_BENCH_BASELINE ? resolve(process.env.LATHE_BENCH_BASELINE) : undefined;
  if (baseline && !existsSync(baseline)) throw new Error(`LATHE_BENCH_BASELINE: no file ${baseline}`);
  const builds: Array<[string, string]> = baseline
    ? [
        ['before', baseline],
        ['after', BIN],
      ]
    : [['this build', BIN]];
  const server = await startServer({ traffic: true });
  const loadBefore = load();
  try {
    const times = new Map<string, RunTimes[]>();
    // One warm-up each (disk cache, compile cache), then the builds in turns, run by run.
    for (const [, bin] of builds) for (const scenario of SCENARIOS) await timeRun(bin, scenario, server);
    for (let i = 0; i < RUNS; i++) {
      for (const scenario of SCENARIOS) {
        for (const [label, bin] of i % 2 ? [...builds].reverse() : builds) {
          const key = `${scenario.name}/${label}`;
          times.set(key, [...(times.get(key) ?? []), await timeRun(bin, scenario, server)]);
        }
      }
    }
    const rows: Array<Record<string, string | number>> = [];
    for (const scenario of SCENARIOS) {
      for (const [metric, pick, target] of [
        ['first request', (t: RunTimes) => t.firstRequestMs, TARGET_FIRST_REQUEST_MS],
        ['first request, lathe CPU', (t: RunTimes) => t.firstRequestCpuMs, undefined],
        ['exit after last reply', (t: RunTimes) => t.exitMs, TARGET_EXIT_MS],
      ] as const) {
        const row: Record<string, string | number> = { case: `${scenario.name}: ${metric}` };
        for (const [label] of builds)
          row[`${label} ms`] = median((times.get(`${scenario.name}/${label}`) ?? []).map(pick));
        const last = row[`${builds.at(-1)?.[0]} ms`] as number;
        row.target = target === undefined ? '' : last < target ? `ok (< ${target} ms)` : `OVER ${target} ms`;
        rows.push(row);
      }
    }
    const loadRow: Record<string, string | number> = Object.fromEntries(
      Object.keys(rows[0]).map((k) => [k, '']),
    );
    rows.push({ ...loadRow, case: `load average (1, 5, 15 min): ${loadBefore} at start, ${load()} at end` });
    return rows;
  } finally {
    server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable(`lathe -p start and exit, medians of ${RUNS}`, await benchHeadlessTiming());
}
