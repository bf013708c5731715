// Checkpoints: what the snapshot before a command costs on a 20,000-file repository where one
// file changed (in a session, and in a new process), what restoring a 100-file change costs,
// and the disk 50 one-file checkpoints add. Targets: under 150 ms and under 500 ms (medians).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CheckpointStore } from '../src/checkpoints/index.js';
import { tempDir } from '../test/support/runtime_fixtures.js';
import { median } from './stats.js';

const RUNS = 20;
type Rows = Array<Record<string, string | number>>;

/** CPU milliseconds of this process and of its children that ended (the git calls). */
function cpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  // utime, stime, cutime, cstime: fields 14-17 of stat, in clock ticks (100 a second).
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
  return ticks * 10;
}

/** 200 folders of 100 small files, committed to a git repository (the user's own, which checkpoints never read). */
function repository(): string {
  const dir = tempDir('lathe-bench-checkpoints-');
  execFileSync('git', ['init', '-q'], { cwd: dir });
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\n*.log\n');
  for (let d = 0; d < 200; d++) {
    const folder = join(dir, 'src', `m${d % 20}`, `d${d}`);
    mkdirSync(folder, { recursive: true });
    for (let f = 0; f < 100; f++)
      writeFileSync(join(folder, `f${f}.ts`), `export const x${f} = ${d * 1000 + f};\n`.repeat(20));
  }
  const identity = ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com'];
  execFileSync('git', ['add', '-A'], { cwd: dir });
  execFileSync('git', [...identity, 'commit', '-qm', 'files'], { cwd: dir });
  return dir;
}

const storeOf = (workspace: string, documentsRoot: string) =>
  new CheckpointStore({ workspace, documentsRoot, keep: 1000, maxAgeDays: 30 });

async function measure(
  runs: number,
  before: (i: number) => void,
  work: (i: number) => Promise<unknown>,
): Promise<{ wall: number; cpu: number }> {
  const wall: number[] = [];
  let cpu = 0;
  for (let i = 0; i < runs; i++) {
    before(i);
    const [start, startCpu] = [performance.now(), cpuMs()];
    await work(i);
    wall.push(performance.now() - start);
    cpu += cpuMs() - startCpu;
  }
  return { wall: median(wall), cpu: cpu / runs };
}

const row = (name: string, m: { wall: number; cpu: number }, target: string) => ({
  case: name,
  'median ms': m.wall,
  'mean CPU ms (with git)': m.cpu,
  target,
});

export async function benchCheckpoints(): Promise<Rows> {
  const dir = repository();
  const home = tempDir('lathe-bench-home-');
  const session = storeOf(dir, home);
  await session.take({ kind: 'turn', label: 'first' }, { always: true });
  const touch = (i: number) => writeFileSync(join(dir, 'src/m1/d1', `f${i % 100}.ts`), `changed ${i}\n`);

  const warm = await measure(RUNS, touch, (i) => session.take({ kind: 'call', label: `run ${i}` }));
  // A new process: no memory of the folders; the shadow repository is there.
  const cold = await measure(5, touch, (i) => storeOf(dir, home).take({ kind: 'call', label: `new ${i}` }));
  const unchanged = await measure(
    RUNS,
    () => {},
    () => session.take({ kind: 'call', label: 'same' }),
  );
  // For scale: what the machine takes for git's own look at the same tree.
  const status = await measure(
    RUNS,
    () => {},
    async () => execFileSync('git', ['status', '--porcelain'], { cwd: dir }),
  );

  const folder = join(dir, 'src/m2/d2');
  const state = (tag: string) => {
    for (let f = 0; f < 100; f++) writeFileSync(join(folder, `f${f}.ts`), `${tag} ${f}\n`);
  };
  state('a');
  const a = await session.take({ kind: 'call', label: 'a' });
  state('b');
  const b = await session.take({ kind: 'call', label: 'b' });
  const restore = await measure(
    10,
    () => {},
    (i) => session.restore(i % 2 === 0 ? a : b),
  );

  const fresh = tempDir('lathe-bench-home-');
  const disk = storeOf(dir, fresh);
  await disk.take({ kind: 'turn', label: 'first' }, { always: true });
  const first = await disk.diskUsage();
  for (let i = 0; i < 50; i++) {
    touch(i + 1000);
    await disk.take({ kind: 'call', label: `change ${i}` });
  }
  const added = (await disk.diskUsage()) - first;

  // The common case in tests and small projects: a few files.
  const tiny = tempDir('lathe-bench-tiny-');
  for (const name of ['a.txt', 'b.md', 'src/x.ts']) {
    mkdirSync(join(tiny, name, '..'), { recursive: true });
    writeFileSync(join(tiny, name), `${name}\n`);
  }
  const tinyHome = tempDir('lathe-bench-home-');
  const tinyStore = storeOf(tiny, tinyHome);
  await tinyStore.take({ kind: 'turn', label: 'first' }, { always: true });
  const tinyTouch = (i: number) => writeFileSync(join(tiny, 'a.txt'), `changed ${i}\n`);
  const tinyWarm = await measure(RUNS, tinyTouch, (i) => tinyStore.take({ kind: 'call', label: `run ${i}` }));
  const tinySame = await measure(
    RUNS,
    () => {},
    () => tinyStore.take({ kind: 'call', label: 'same' }),
  );
  const tinyCold = await measure(5, tinyTouch, (i) =>
    storeOf(tiny, tinyHome).take({ kind: 'call', label: `new ${i}` }),
  );

  return [
    row('tiny workspace (3 files): one file changed (in a session)', tinyWarm, ''),
    row('tiny workspace: nothing changed', tinySame, ''),
    row('tiny workspace: one file changed, first in a new process', tinyCold, ''),
    row('checkpoint before a command, one file changed (in a session)', warm, '< 150'),
    row('the same, first in a new process', cold, ''),
    row('checkpoint before a command, nothing changed', unchanged, ''),
    row('for scale: git status --porcelain of the same repository', status, ''),
    row('restore of a 100-file change (checkpoint of the present included)', restore, '< 500'),
    {
      case: '50 one-file checkpoints: disk added (KB, not ms)',
      'median ms': Math.round(added / 1024),
      'mean CPU ms (with git)': 0,
      target: '< 5,120',
    },
  ];
}
