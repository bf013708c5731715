import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { nodeAsync } from './support/cli.js';
import { pathWithout } from './support/no_bubblewrap.js';
import { missingProgramsMessage } from './support/required_programs.js';

const checkout = fileURLToPath(new URL('..', import.meta.url));
const VITEST = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const CONFIG = 'test/support/required_programs/vitest.config.ts';

/** Vitest on the fixture file that needs tmux, with tmux (and only tmux) hidden from PATH. */
function vitestWithoutTmux(env: Record<string, string> = {}) {
  return nodeAsync(VITEST, ['run', '--config', CONFIG, '--reporter', 'verbose'], {
    cwd: checkout,
    env: { PATH: pathWithout(['tmux']), LATHE_TEST_SKIP_MISSING: '', NO_COLOR: '1', ...env },
  });
}

describe('the check for the programs the tests run', () => {
  it('stops the suite with one line naming the missing program and its install command', async () => {
    const { code, stdout, stderr } = await vitestWithoutTmux();
    expect(code).toBe(1);
    expect(stderr).toBe(`${missingProgramsMessage(['tmux'])}\n`);
    expect(stderr).toContain('apt install tmux');
    expect(stdout).not.toContain('runs tmux');
  });

  it('under LATHE_TEST_SKIP_MISSING=1 skips the tests that need it, saying which program', async () => {
    const { code, stdout } = await vitestWithoutTmux({ LATHE_TEST_SKIP_MISSING: '1' });
    expect(code).toBe(0);
    expect(stdout).toMatch(/↓ .*a terminal test \(skipped: needs tmux\) > runs tmux/);
    expect(stdout).toMatch(/✓ .*needs nothing/);
  });
});

/** Vitest, with the project's own configuration, on real test files, with `hidden` off PATH. */
function suiteWithout(hidden: string, files: string[]) {
  return nodeAsync(VITEST, ['run', '--reporter', 'verbose', ...files], {
    cwd: checkout,
    env: { PATH: pathWithout([hidden]), LATHE_TEST_SKIP_MISSING: '1', NO_COLOR: '1' },
  });
}

describe('the suite’s files that run a program, with it missing and LATHE_TEST_SKIP_MISSING=1', () => {
  it.each([
    ['redis-server', 'test/jobs/redis_unreachable.test.ts', 'lathe jobs with a Redis that does not answer'],
    ['tmux', 'test/tui/resume.e2e.test.ts', 'resuming from the terminal'],
  ])('without %s, %s is skipped, saying so, and fails nothing', async (program, file, group) => {
    const { code, stdout } = await suiteWithout(program, [file]);
    expect(stdout).not.toMatch(/✗|×|FAIL/);
    expect(stdout).toContain(`${group} (skipped: needs ${program})`);
    expect(stdout).toMatch(/Tests\s+\d+ skipped/);
    expect(code).toBe(0);
  });
});
