import { afterEach, describe, expect, it } from 'vitest';
import { latheAsync } from '../../support/cli.js';
import { closeFakeServers, runHeadless } from '../../support/headless_run.js';
import { testNeeds } from '../../support/required_programs.js';
import { tempDir } from '../../support/runtime_fixtures.js';
import { checkoutState, repository } from '../../worktree/repos.js';

afterEach(closeFakeServers);

const PLAN = [
  '1. Create `notes.txt` with the release notes.',
  '2. Add a usage section to README.md.',
  '3. Write `docs/guide.md`.',
  '4. Run `node check.js`.',
  '5. Run the tests.',
  '6. Tidy up the wording.',
].join('\n');

describe('verify_plan_execution', () => {
  it('through lathe tool: refuses without an approved plan', async () => {
    const r = await latheAsync(['tool', 'verify_plan_execution', '--feature', 'verify_plan'], {
      cwd: tempDir(),
      env: { LATHE_HOME: tempDir('lathe-home-'), LATHE_FEATURES: '', NODE_ENV: 'test' },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      'No approved plan in this session: present one with make_plan (or exit_plan_mode) and have it approved first.\n',
    );
  });

  testNeeds('bwrap')(
    'in a lathe -p run: each step done, not done or changed, with evidence from the record and git',
    async () => {
      const repo = repository({ 'README.md': '# Widgets\n', 'check.js': 'process.exit(1);\n' });
      const run = await runHeadless(
        repo,
        [
          { toolCalls: [{ name: 'make_plan', input: { plan: PLAN } }] },
          { toolCalls: [{ name: 'write_to_file', input: { path: 'notes.txt', content: 'Retries.\n' } }] },
          { toolCalls: [{ name: 'execute_command', input: { command: "echo '## Usage' >> README.md" } }] },
          { toolCalls: [{ name: 'execute_command', input: { command: 'node check.js' } }] },
          { toolCalls: [{ name: 'write_to_file', input: { path: 'extra.txt', content: 'x\n' } }] },
          { toolCalls: [{ name: 'verify_plan_execution', input: {} }] },
          { toolCalls: [{ name: 'attempt_completion', input: { result: 'Checked.' } }] },
        ],
        ['--feature', 'verify_plan', '--yolo'],
      );
      expect(run.code, run.stderr).toBe(0);
      const report = run.requests[6].toolResults[0].content;
      expect(report).toMatch(
        /^Plan approved \d{4}-\d\d-\d\dT[\d:.]+Z; 6 step\(s\): 2 done, 1 changed, 2 not done, 1 unverified\.\n/,
      );
      expect(report.split('\n').slice(1)).toEqual([
        '1. [done] Create `notes.txt` with the release notes.',
        '   - notes.txt: changed by write_to_file',
        '2. [done] Add a usage section to README.md.',
        '   - README.md: changed in the tree (git status; by a command)',
        '3. [not done] Write `docs/guide.md`.',
        '   - docs/guide.md: not changed',
        '4. [changed] Run `node check.js`.',
        '   - `node check.js`: ran exit 1',
        '5. [not done] Run the tests.',
        '   - tests: no test command was run',
        '6. [unverified] Tidy up the wording.',
        '   - names no file, command or test the record can show: check it by hand',
        'Changed but not in the plan: extra.txt',
        'Commands run since the approval: 2',
      ]);
      // Checking changes nothing: the tree is as the calls left it.
      expect(checkoutState(repo).status).toBe(' M README.md\n?? extra.txt\n?? notes.txt\n');
    },
  );
});
