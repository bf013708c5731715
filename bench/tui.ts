// The interactive UI under load: a 2,000-message session, 10,000 streamed tokens, typing at its
// end; time per frame (median, p99) and peak RSS. Then start-up of the built command to a ready
// prompt in a real terminal (a pty). Targets: p99 frame < 16 ms, peak RSS < 200 MB, start-up < 300 ms.
// `npx tsx bench/tui.ts --startup` runs the start-up part alone (LATHE_BENCH_BASELINE: see benchStartup).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, printTable } from './stats.js';

const MESSAGES = 2_000;
const TOKENS = 10_000;
const TOKENS_PER_FRAME = 5;
const KEYSTROKES = 200;
const STARTUP_RUNS = Number(process.env.LATHE_BENCH_RUNS) || 11;
const BIN = fileURLToPath(new URL('../dist/bin/lathe.js', import.meta.url));
const DIST = fileURLToPath(new URL('../dist', import.meta.url));

type Rows = Array<Record<string, string | number>>;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

const REPLY = `Here is what I found in **src/parser.ts**:

- the tokenizer skips \`\\r\` at line ends
- the error path loses the position

\`\`\`ts
export function parse(input: string): Node[] {
  const tokens = tokenize(input); // keeps positions
  return tokens.map((t) => ({ kind: t.kind, at: t.at }));
}
\`\`\`

I will fix the second one next.`;

/**
 * The frames are measured in a child process on the compiled modules (dist/), without the
 * TypeScript loader this file runs under, so its peak RSS is the UI's own. As in the product,
 * React loads with NODE_ENV=production, the heap is tuned for size, and Ink sees a terminal (not
 * CI): a fake 100×30 TTY.
 */
const FRAMES_CHILD = (resultFile: string) => `
import { EventEmitter } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// As the interactive UI does when it starts.
(await import(${JSON.stringify(`${DIST}/tui/heap.js`)})).preferSmallHeap();
const React = await import('react');
const { render } = await import('ink');
const { App } = await import(${JSON.stringify(`${DIST}/tui/components/app.js`)});
const { PromptHistory } = await import(${JSON.stringify(`${DIST}/tui/input/history.js`)});
const { InteractiveSession } = await import(${JSON.stringify(`${DIST}/tui/session/controller.js`)});
const { createRuntime } = await import(${JSON.stringify(`${DIST}/runtime/create_runtime.js`)});
class FakeStdout extends EventEmitter { columns = 100; rows = 30; isTTY = true; write() { return true; } }
class FakeStdin extends EventEmitter {
  isTTY = true; data = null;
  setEncoding() {} setRawMode() {} resume() {} pause() {} ref() {} unref() {}
  read = () => { const d = this.data; this.data = null; return d; };
  type(d) { this.data = d; this.emit('readable'); }
}
const cwd = mkdtempSync(join(tmpdir(), 'lathe-bench-tui-'));
const fail = () => { throw new Error('not in the bench'); };
const session = new InteractiveSession({ host: {
  createRuntime: ({ askUser }) => createRuntime({ cwd, documentsRoot: join(cwd, '.home'), askUser }),
  defaultModel: () => 'anthropic/claude-sonnet-4-5', loadModel: async () => fail(), openLog: fail,
  findSession: () => undefined, recorded: () => false, attach: (runtime) => () => runtime.dispose(),
} });
const stdin = new FakeStdin();
let inFrame = false, deferred = 0;
const instance = render(React.createElement(App, { session, history: new PromptHistory() }), {
  stdout: new FakeStdout(), stdin, exitOnCtrlC: false, patchConsole: false, maxFps: 60,
  onRender: ({ renderTime }) => { if (!inFrame) deferred += renderTime; },
});
const store = session.store;
// One frame: the change is published, React and Ink render; renders Ink deferred are added.
const frame = async (change) => {
  deferred = 0; inFrame = true;
  const start = performance.now();
  change(); store.flush();
  const took = performance.now() - start;
  inFrame = false;
  await new Promise((resolve) => setTimeout(resolve, 1));
  return took + deferred;
};
const reply = ${JSON.stringify(REPLY)};
const rss = () => process.memoryUsage().rss / 1048576;
const result = { session: [], stream: [], typing: [] };
for (let i = 0; i < ${MESSAGES}; i++) {
  result.session.push(await frame(() => {
    if (i % 4 === 0) store.add({ kind: 'user', text: 'Message ' + i + ': please look at the parser again.' });
    else if (i % 4 === 1) store.add({ kind: 'assistant', markdown: reply });
    else {
      store.addTool({ id: 't' + i, name: 'read_file', input: { path: 'src/file_' + i + '.ts' }, status: 'running', startedAt: Date.now() });
      store.updateTool('t' + i, { status: 'ok', elapsedMs: 3, resultText: 'line\\n'.repeat(40) });
    }
  }));
  if (i === 499) result.rss500 = rss();
}
result.rss2000 = rss();
const words = reply.split(/(?<=\\s)/);
for (let t = 0; t < ${TOKENS}; t += ${TOKENS_PER_FRAME})
  result.stream.push(await frame(() => { for (let k = 0; k < ${TOKENS_PER_FRAME}; k++) store.appendText(words[(t + k) % words.length]); }));
await frame(() => store.endText());
for (let k = 0; k < ${KEYSTROKES}; k++) result.typing.push(await frame(() => stdin.type(k % 20 === 19 ? ' ' : 'x')));
instance.unmount();
result.peak = process.resourceUsage().maxRSS / 1024;
writeFileSync(${JSON.stringify(resultFile)}, JSON.stringify(result));
process.exit(0);
`;

interface FrameResult {
  session: number[];
  stream: number[];
  typing: number[];
  rss500: number;
  rss2000: number;
  peak: number;
}

function benchFrames(): Rows {
  if (!existsSync(join(DIST, 'tui'))) throw new Error('dist/ is missing: run `npm run build` first');
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production' };
  for (const name of Object.keys(env))
    if (name === 'CI' || name.startsWith('CI_') || name === 'CONTINUOUS_INTEGRATION') delete env[name];
  const resultFile = join(mkdtempSync(join(tmpdir(), 'lathe-bench-frames-')), 'result.json');
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', FRAMES_CHILD(resultFile)], {
    encoding: 'utf8',
    env,
    cwd: join(DIST, '..'),
  });
  if (run.status !== 0 || !existsSync(resultFile)) throw new Error(`the frame bench failed:\n${run.stderr}`);
  const result = JSON.parse(readFileSync(resultFile, 'utf8')) as FrameResult;
  const row = (name: string, frames: number[]) => ({
    case: name,
    frames: frames.length,
    'median ms': median(frames),
    'p99 ms': percentile(frames, 99),
    target: percentile(frames, 99) < 16 ? 'ok (p99 < 16 ms)' : 'OVER 16 ms',
  });
  return [
    row(`${MESSAGES.toLocaleString('en-US')} messages printed, one per frame`, result.session),
    row(`${TOKENS.toLocaleString('en-US')} tokens streamed after them`, result.stream),
    row('typing at the end of it', result.typing),
    {
      case: 'peak RSS (MB)',
      frames: '',
      'median ms': result.peak,
      'p99 ms': '',
      target: `${result.peak < 200 ? 'ok (< 200 MB)' : 'OVER 200 MB'}; RSS ${result.rss500.toFixed(0)} MB at 500 messages, ${result.rss2000.toFixed(0)} at 2,000`,
    },
  ];
}

/** What the prompt shows once it takes keys (the first letter may be drawn as the cursor). */
const READY = 'sk lathe to do something';

/**
 * One start of `bin` in a terminal of 100 x 30 (a pty from util-linux's `script`), timed from the
 * spawn to the output that draws the prompt: read as it is written, with no polling.
 */
function timeToPrompt(bin: string, cwd: string, home: string): Promise<number> {
  const command = [
    'stty cols 100 rows 30;',
    `exec env -i PATH='${process.env.PATH}' TERM=xterm-256color HOME='${home}' LATHE_HOME='${home}'`,
    `ANTHROPIC_API_KEY=k '${process.execPath}' '${bin}' --model anthropic/claude-sonnet-4-5`,
  ].join(' ');
  return new Promise((done, fail) => {
    const start = performance.now();
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd, detached: true, stdio: 'pipe' });
    let seen = '';
    const timer = setTimeout(() => fail(new Error('the prompt did not show within 10 s')), 10_000);
    child.stdout.on('data', (chunk: Buffer) => {
      if (seen.includes(READY)) return;
      seen = (seen + chunk.toString('utf8')).slice(-4096);
      if (!seen.includes(READY)) return;
      const ms = performance.now() - start;
      clearTimeout(timer);
      child.once('close', () => done(ms));
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    });
  });
}

/**
 * Start-up to a ready prompt: the built command in a terminal, timed until its prompt shows. With
 * LATHE_BENCH_BASELINE pointing at an earlier build's dist/bin/lathe.js, the two builds run
 * interleaved, run by run, so a change in the machine's load hits both.
 */
async function benchStartup(): Promise<Rows> {
  if (!existsSync(BIN)) throw new Error('dist/ is missing: run `npm run build` first');
  const baseline = process.env.LATHE_BENCH_BASELINE ? resolve(process.env.LATHE_BENCH_BASELINE) : undefined;
  if (baseline && !existsSync(baseline)) throw new Error(`LATHE_BENCH_BASELINE: no file ${baseline}`);
  const builds = baseline ? { before: baseline, after: BIN } : { after: BIN };
  const cwd = mkdtempSync(join(tmpdir(), 'lathe-bench-start-'));
  const home = mkdtempSync(join(tmpdir(), 'lathe-bench-home-'));
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(builds).map((name) => [name, []]));
  // Run 0 warms the disk cache and is not counted.
  for (let run = 0; run <= STARTUP_RUNS; run++) {
    for (const [name, bin] of Object.entries(builds)) {
      const ms = await timeToPrompt(bin, cwd, home);
      if (run > 0) times[name].push(ms);
    }
  }
  const ms = median(times.after);
  return [
    {
      case: 'start-up to a ready prompt (terminal)',
      frames: times.after.length,
      ...(times.before ? { 'before ms': median(times.before) } : {}),
      'median ms': ms,
      'p99 ms': '',
      target: ms < 300 ? 'ok (< 300 ms)' : 'OVER 300 ms',
    },
  ];
}

export async function benchTui(): Promise<Rows> {
  return [...benchFrames(), ...(await benchStartup())];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // `--startup` times only the start-up to a ready prompt.
  if (process.argv.includes('--startup')) printTable('interactive UI: start-up', await benchStartup());
  else printTable('interactive UI: time per frame, memory, start-up', await benchTui());
}
