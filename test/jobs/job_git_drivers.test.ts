import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { mirrorDir } from '../../src/jobs/paths.js';
import { needs } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { branchFiles, type JobWorld, makeWorld, shown } from './queue_behaviour.js';

const MODEL = ['--model', 'anthropic/claude-sonnet-4-5'];
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'ignore' });

needs('bwrap')("lathe jobs: the git calls of a job run no program a repository's configuration names", () => {
  let world: JobWorld;
  afterEach(async () => {
    await world?.server.close();
  });

  it('runs no clean, smudge or textconv program when it checks out, stages and diffs', async () => {
    world = await makeWorld([]);
    const marker = join(tempDir('lathe-marker-'), 'ran.txt');
    const script = join(tempDir('lathe-driver-'), 'driver.sh');
    writeFileSync(script, `#!/bin/sh\necho "$1" >> ${marker}\ncat\n`, { mode: 0o755 });
    writeFileSync(join(world.repo, '.gitattributes'), '* filter=evil diff=evil\n');
    git(world.repo, 'add', '.gitattributes');
    git(world.repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '--quiet', '-m', 'attributes');
    const submit = (id: string, ...extra: string[]) =>
      world.jobs([
        'jobs',
        'submit',
        '--repo',
        world.repo,
        '--prompt',
        `[job ${id}]`,
        '--id',
        id,
        ...extra,
        ...MODEL,
      ]);
    // The first job makes the mirror; then its configuration names the programs, as a run could.
    await submit('first');
    await world.jobs(['jobs', 'run']);
    expect((await shown(world, 'first')).status).toBe('completed');
    const mirror = mirrorDir(world.home, world.repo);
    for (const [key, value] of [
      ['filter.evil.clean', `${script} clean`],
      ['filter.evil.smudge', `${script} smudge`],
      ['diff.evil.textconv', `${script} textconv`],
    ])
      git(mirror, 'config', key, value);
    // Plain git runs them: the mirror really is armed.
    const probe = join(tempDir('lathe-probe-'), 'wt');
    git(mirror, 'worktree', 'add', '--quiet', '--detach', probe, 'main');
    expect(readFileSync(marker, 'utf8')).toContain('smudge');
    git(mirror, 'worktree', 'remove', '--force', probe);
    writeFileSync(marker, '');

    await submit('branch');
    await submit('patch', '--output', 'patch');
    await world.jobs(['jobs', 'run']);
    const branch = await shown(world, 'branch');
    expect(branch.status).toBe('completed');
    expect(branchFiles(mirror, 'lathe/job-branch')).toEqual(['branch.txt']);
    const patch = await shown(world, 'patch');
    expect(patch.status).toBe('completed');
    expect(readFileSync(patch.outcome.output.path, 'utf8')).toContain('+work of patch');
    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('');
  }, 120_000);
});
