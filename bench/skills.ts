// Extending lathe: what finding the extensions costs at start. `skills`: discovering 200
// skills (each a folder with SKILL.md and two resource files), alone and as the difference they
// make to creating a runtime.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { discoverSkills } from '../src/config/skills/index.js';
import { createRuntime } from '../src/runtime/create_runtime.js';
import { tempDir } from '../test/support/runtime_fixtures.js';
import { median, timeRuns } from './stats.js';

const RUNS = 21;
const SKILLS = 200;
type Rows = Array<Record<string, string | number>>;

/** A LATHE_HOME with `count` skills, each with a script and a reference beside its SKILL.md. */
function homeWithSkills(count: number): string {
  const home = tempDir('lathe-bench-skills-');
  for (let i = 0; i < count; i++) {
    const folder = join(home, 'skills', `skill-${i}`);
    mkdirSync(join(folder, 'scripts'), { recursive: true });
    mkdirSync(join(folder, 'references'));
    writeFileSync(
      join(folder, 'SKILL.md'),
      `---\nname: skill-${i}\ndescription: Does task number ${i}; use it when the user asks for task ${i}.\n` +
        `license: MIT\nallowed-tools: Bash(make task-${i}:*) Read\nmetadata:\n  version: "1.0"\n---\n` +
        `# Task ${i}\n\n${'Step by step instructions. '.repeat(40)}\n`,
    );
    writeFileSync(join(folder, 'scripts', 'run.sh'), 'echo run\n');
    writeFileSync(join(folder, 'references', 'notes.md'), '# Notes\n');
  }
  return home;
}

export async function benchSkills(): Promise<Rows> {
  const workspace = tempDir('lathe-bench-ws-');
  const withSkills = homeWithSkills(SKILLS);
  const without = tempDir('lathe-bench-empty-');
  const home = tempDir('lathe-bench-home-');
  const discover = () =>
    discoverSkills({ workspace, documentsRoot: withSkills, home, includeWorkspace: true });
  if (discover().skills.length !== SKILLS) throw new Error('the bench skills were not all found');
  const discovery = median(await timeRuns(RUNS, discover, 3));
  // The machine may be shared: the CPU time of one discovery says what lathe itself spends.
  const cpuTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const before = process.cpuUsage();
    discover();
    const used = process.cpuUsage(before);
    cpuTimes.push((used.user + used.system) / 1000);
  }
  const runtimeAt = (documentsRoot: string) => () =>
    createRuntime({ cwd: workspace, documentsRoot, env: {} }).dispose();
  const runtimeWith = median(await timeRuns(RUNS, runtimeAt(withSkills), 3));
  const runtimeWithout = median(await timeRuns(RUNS, runtimeAt(without), 3));
  const ms = (value: number) => Number(value.toFixed(2));
  return [
    { case: `skills: discover ${SKILLS}`, 'median ms': ms(discovery), runs: RUNS },
    { case: `skills: discover ${SKILLS}, CPU time`, 'median ms': ms(median(cpuTimes)), runs: RUNS },
    { case: 'skills: createRuntime, none', 'median ms': ms(runtimeWithout), runs: RUNS },
    { case: `skills: createRuntime, ${SKILLS} skills`, 'median ms': ms(runtimeWith), runs: RUNS },
    {
      case: `skills: added at start by ${SKILLS}`,
      'median ms': ms(runtimeWith - runtimeWithout),
      runs: RUNS,
    },
  ];
}
