import { describe, expect, it } from 'vitest';
import { verifySteps, workAfterPlan } from '../../../src/tools/plan/plan_check.js';
import { planSteps } from '../../../src/tools/plan/plan_steps.js';

describe('planSteps', () => {
  it('takes numbered items as steps, with the files and commands each names', () => {
    const steps = planSteps(
      [
        '# Plan',
        '',
        '1. Add retries to `src/upload.ts` and src/config.ts.',
        '   Keep the default at 3 (see https://example.com/a/b).',
        '2. Run the tests:',
        '   ```',
        '   $ npm test -- --run',
        '   ```',
        '3. Tidy up.',
      ].join('\n'),
    );
    expect(steps.map((s) => [s.n, s.title, s.paths, s.commands, s.wantsTests])).toEqual([
      [1, 'Add retries to `src/upload.ts` and src/config.ts.', ['src/upload.ts', 'src/config.ts'], [], false],
      [2, 'Run the tests:', [], ['npm test -- --run'], true],
      [3, 'Tidy up.', [], [], false],
    ]);
  });

  it('falls back to bullets, then headings, then the whole plan as one step', () => {
    expect(
      planSteps('- [ ] edit `a.md`\n- [x] run `git status`').map((s) => [s.title, s.paths, s.commands]),
    ).toEqual([
      ['edit `a.md`', ['a.md'], []],
      ['run `git status`', [], ['git status']],
    ]);
    expect(planSteps('## Step one\nChange README.md\n## Step two\nnothing').map((s) => s.paths)).toEqual([
      ['README.md'],
      [],
    ]);
    expect(planSteps('Just fix the typo.')).toHaveLength(1);
  });
});

describe('verifySteps', () => {
  const workspace = '/w';
  const work = workAfterPlan(
    [
      { type: 'call', at: '', tool: 'edit_file', ok: true, paths: ['/w/src/upload.ts'] },
      { type: 'call', at: '', tool: 'execute_command', ok: false, command: 'npm test -- --run', exitCode: 1 },
      { type: 'call', at: '', tool: 'execute_command', ok: true, command: 'npm test -- --run', exitCode: 0 },
      { type: 'call', at: '', tool: 'write_to_file', ok: false, paths: ['/w/failed.txt'] },
    ],
    workspace,
    ['src/config.ts', 'src/upload.ts'],
  );

  it('marks a step done when every file it names changed, by a tool or (git says) a command', () => {
    const [step] = verifySteps(planSteps('1. Change `src/upload.ts` and `config.ts`'), work);
    expect(step.status).toBe('done');
    expect(step.evidence).toEqual([
      'src/upload.ts: changed by edit_file',
      'src/config.ts: changed in the tree (git status; by a command)',
    ]);
  });

  it('judges a command by its last run, and a failed call changes nothing', () => {
    const steps = verifySteps(
      planSteps('1. Run `npm test`\n2. Write `failed.txt`\n3. Write `failed.txt`, run `make`'),
      work,
    );
    expect(steps.map((s) => s.status)).toEqual(['done', 'not done', 'not done']);
    expect(steps[0].evidence).toEqual(['`npm test`: ran (2 runs, the last:) exit 0']);
  });

  it('takes a span the step says to run as a command, whatever the program: not run is not done', () => {
    const plan = [
      '1. Run `shellcheck scripts/build.sh`.',
      '2. Execute `./scripts/check` and then `lathe doctor`.',
      '3. Set `retries: 3` in `settings.ts`.',
    ].join('\n');
    expect(planSteps(plan).map((s) => [s.commands, s.paths])).toEqual([
      [['shellcheck scripts/build.sh'], []],
      [['./scripts/check', 'lathe doctor'], []],
      [[], ['settings.ts']],
    ]);
    const steps = verifySteps(planSteps(plan), work);
    expect(steps.map((s) => s.status)).toEqual(['not done', 'not done', 'not done']);
    expect(steps[0].evidence).toEqual(['`shellcheck scripts/build.sh`: not run']);
    const ran = workAfterPlan(
      [
        {
          type: 'call',
          at: '',
          tool: 'execute_command',
          ok: true,
          command: 'shellcheck scripts/build.sh',
          exitCode: 0,
        },
      ],
      workspace,
      [],
    );
    expect(verifySteps(planSteps(plan), ran)[0].status).toBe('done');
  });

  it('marks a step changed when only part of it happened', () => {
    const [step] = verifySteps(planSteps('1. Edit `src/upload.ts` and `src/retry.ts`'), work);
    expect(step.status).toBe('changed');
    expect(step.evidence[1]).toBe('src/retry.ts: not changed');
  });
});
