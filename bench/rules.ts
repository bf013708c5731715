// Extending lathe: what the files users add cost at start and per prompt. `rules`: discovering
// 200 rule files (.agents/rules, the user's, other tools' files; half conditional) against an
// empty folder, and reading them again at each prompt (unchanged files are not parsed again).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RuleSet } from '../src/config/rules/index.js';
import { tempDir } from '../test/support/runtime_fixtures.js';
import { median } from './stats.js';

const RUNS = 30;
type Rows = Array<Record<string, string | number>>;

const cpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

/**
 * Median wall and CPU milliseconds of `fn` over RUNS runs (after one warm-up). CPU time is given
 * too: on a busy machine the wall time mostly measures the other processes.
 */
function measure(fn: () => unknown): { wall: number; cpu: number } {
  fn();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const [start, startCpu] = [performance.now(), cpuMs()];
    fn();
    wall.push(performance.now() - start);
    cpu.push(cpuMs() - startCpu);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

const row = (name: string, m: { wall: number; cpu: number }, target = '') => ({
  case: name,
  'median ms': m.wall,
  'median CPU ms': m.cpu,
  target,
});

/** A workspace and a LATHE_HOME holding `count` rule files between them. */
function ruleFolders(count: number): { workspace: string; documentsRoot: string } {
  const workspace = tempDir('lathe-bench-rules-');
  const documentsRoot = tempDir('lathe-bench-home-');
  mkdirSync(join(workspace, '.agents', 'rules'), { recursive: true });
  mkdirSync(join(workspace, '.clinerules'));
  mkdirSync(join(documentsRoot, 'rules'));
  const body = 'Keep functions short; name things for what they are.\n'.repeat(10);
  for (const name of ['CLAUDE.md', 'GEMINI.md', '.cursorrules', '.windsurfrules'])
    writeFileSync(join(workspace, name), body);
  for (let i = 4; i < count; i++) {
    const folder =
      i % 4 === 0
        ? join(documentsRoot, 'rules')
        : i % 4 === 1
          ? join(workspace, '.clinerules')
          : join(workspace, '.agents', 'rules');
    const text = i % 2 === 0 ? `---\npaths: ["src/mod${i}/**/*.ts", "*.py"]\n---\n${body}` : body;
    writeFileSync(join(folder, `rule-${String(i).padStart(3, '0')}.md`), text);
  }
  return { workspace, documentsRoot };
}

export async function benchRules(): Promise<Rows> {
  const empty = { workspace: tempDir('lathe-bench-norules-'), documentsRoot: tempDir('lathe-bench-home-') };
  const full = ruleFolders(200);
  // The first discovery of the process also loads the code that reads rules.
  const [first, firstCpu] = [performance.now(), cpuMs()];
  const found = new RuleSet(full);
  const firstRun = { wall: performance.now() - first, cpu: cpuMs() - firstCpu };
  if (found.statuses().length !== 200) throw new Error(`found ${found.statuses().length} rules, not 200`);
  let n = 0;
  return [
    row(
      'rules: none (empty folder)',
      measure(() => new RuleSet(empty)),
    ),
    row('rules: 200 files, first in the process (loads its code)', firstRun),
    row(
      'rules: 200 files, at start',
      measure(() => new RuleSet(full)),
      '< 20 added',
    ),
    row(
      'rules: 200 files, again at each prompt (unchanged)',
      measure(() => found.refresh()),
    ),
    row(
      'rules: 100 new files read, against 100 conditional rules',
      measure(() => {
        for (let i = 0; i < 100; i++) found.touch(`src/other${i}/file${n++}.ts`, full.workspace);
      }),
    ),
  ];
}
