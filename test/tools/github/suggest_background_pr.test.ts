import { chmodSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorktree } from '../../../src/worktree/index.js';
import { latheAsync } from '../../support/cli.js';
import { closeFakeServers, runHeadless } from '../../support/headless_run.js';
import { tempDir } from '../../support/runtime_fixtures.js';
import { disposeAll, runtimeWith } from '../../tasks/helpers.js';
import { checkoutState, git, repository, writeFiles } from '../../worktree/repos.js';

afterEach(async () => {
  await disposeAll();
  await closeFakeServers();
});

const INPUT = { title: 'Retry failed uploads', body: 'Uploads retry three times.', branch: 'retry' };

/** A repository with a GitHub remote and a lathe worktree `retry` holding one commit and one uncommitted file. */
async function backgroundWork(home: string) {
  const repo = repository();
  git(repo, 'remote', 'add', 'origin', 'git@github.com:acme/widgets.git');
  const worktree = await createWorktree({ repo, name: 'retry', documentsRoot: home });
  writeFiles(worktree.dir, { 'src/upload.ts': 'export const retries = 3;\n' });
  git(worktree.dir, 'add', '-A');
  git(worktree.dir, 'commit', '-q', '-m', 'Retry uploads');
  writeFiles(worktree.dir, { 'notes.txt': 'not committed\n' });
  return { repo, worktree };
}

/** A folder holding an executable `gh` (never run: only found on PATH). */
function fakeGhFolder(): string {
  const bin = tempDir('lathe-bin-');
  writeFileSync(join(bin, 'gh'), '#!/bin/sh\nexit 1\n');
  chmodSync(join(bin, 'gh'), 0o755);
  return bin;
}

describe('suggest_background_pr', () => {
  it("describes the worktree branch's commits and diffstat, writing the description to the session folder only", async () => {
    const home = tempDir('lathe-home-');
    const { repo, worktree } = await backgroundWork(home);
    const before = checkoutState(repo);
    const rt = runtimeWith(['internal'], { cwd: repo, documentsRoot: home });
    const result = await rt.runTool('suggest_background_pr', INPUT);
    expect(result.isError, result.text).toBe(false);
    const data = result.data as {
      branch: string;
      base: string;
      commits: string[];
      bodyFile: string;
      commands: string[];
    };
    expect(data.branch).toBe('lathe/retry');
    expect(data.base).toBe('main');
    expect(data.commits).toEqual([expect.stringMatching(/^[0-9a-f]{7,} Retry uploads$/)]);
    expect(data.bodyFile).toBe(join(rt.sessionDir, 'pull-requests', 'lathe-retry.md'));
    const description = readFileSync(data.bodyFile, 'utf8');
    expect(description).toMatch(
      /^Uploads retry three times\.\n\n## Commits\n\n- [0-9a-f]+ Retry uploads\n\n## Changes\n/,
    );
    expect(description).toContain('src/upload.ts | 1 +');
    expect(data.commands[0]).toBe("git push -u 'origin' 'lathe/retry'");
    expect(result.text).toContain(`1 change(s) in ${worktree.dir} are not committed and not in this PR.`);
    // Nothing of the user's checkout moved, and nothing was pushed or committed.
    expect(checkoutState(repo)).toEqual(before);
    expect(git(worktree.dir, 'status', '--porcelain')).toBe('?? notes.txt\n');
  });

  it('refuses a branch with nothing committed past its base, pointing at the uncommitted work', async () => {
    const home = tempDir('lathe-home-');
    const repo = repository();
    const worktree = await createWorktree({ repo, name: 'empty', documentsRoot: home });
    writeFiles(worktree.dir, { 'draft.txt': 'x\n' });
    const rt = runtimeWith(['internal'], { cwd: repo, documentsRoot: home });
    const result = await rt.runTool('suggest_background_pr', { ...INPUT, branch: 'lathe/empty' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(
      /^No pull request suggested: lathe\/empty has no commits past its base [0-9a-f]{12}\./,
    );
    expect(result.text).toContain('1 uncommitted change(s): commit them (exit_worktree does) first.');
  });

  it("refuses an unknown branch, listing lathe's, and the branch checked out", async () => {
    const home = tempDir('lathe-home-');
    const { repo } = await backgroundWork(home);
    const rt = runtimeWith(['internal'], { cwd: repo, documentsRoot: home });
    const unknown = await rt.runTool('suggest_background_pr', { ...INPUT, branch: 'nope' });
    expect(unknown.text).toMatch(
      /^No pull request suggested: There is no branch "nope" in .*\. Branches of lathe's worktrees: lathe\/retry\./,
    );
    const current = await rt.runTool('suggest_background_pr', { ...INPUT, branch: 'main' });
    expect(current.text).toMatch(/main is the branch checked out in/);
    const outside = runtimeWith(['internal'], { cwd: tempDir(), documentsRoot: home });
    expect((await outside.runTool('suggest_background_pr', INPUT)).text).toMatch(
      /is not in a git repository/,
    );
  });
});

describe('suggest_background_pr through lathe tool and lathe -p', () => {
  const env = (home: string, path: string) => ({
    LATHE_HOME: home,
    LATHE_FEATURES: '',
    NODE_ENV: 'test',
    PATH: path,
  });

  it('gives the gh pr create line when gh is on PATH', async () => {
    const home = tempDir('lathe-home-');
    const { repo } = await backgroundWork(home);
    const r = await latheAsync(
      ['tool', 'suggest_background_pr', '--feature', 'internal', '--input', JSON.stringify(INPUT)],
      { cwd: repo, env: env(home, `${fakeGhFolder()}:${process.env.PATH}`) },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Suggested a pull request \(nothing was pushed/);
    const bodyFile = /Description: (\S+)/.exec(r.stdout)![1];
    expect(r.stdout).toContain(
      `gh pr create --base 'main' --head 'lathe/retry' --title 'Retry failed uploads' --body-file '${bodyFile}'`,
    );
    expect(existsSync(bodyFile)).toBe(true);
  });

  it('without gh, a lathe -p run hands the model the compare URL instead', async () => {
    const home = tempDir('lathe-home-');
    const { repo } = await backgroundWork(home);
    // PATH keeps git and node but no gh (whether or not this machine has one).
    const path = tempDir('lathe-bin-');
    for (const program of ['git', 'node']) {
      const found = process.env
        .PATH!.split(':')
        .map((dir) => join(dir, program))
        .find(existsSync);
      if (found) symlinkSync(found, join(path, program));
    }
    const saved = process.env.PATH;
    process.env.PATH = path;
    try {
      const run = await runHeadless(
        repo,
        [
          { toolCalls: [{ name: 'suggest_background_pr', input: INPUT }] },
          { toolCalls: [{ name: 'attempt_completion', input: { result: 'Suggested.' } }] },
        ],
        ['--feature', 'internal'],
        { home },
      );
      expect(run.code, run.stderr).toBe(0);
      const result = run.requests[1].toolResults[0].content;
      expect(result).toMatch(/^Suggested a pull request/);
      expect(result).not.toContain('gh pr create');
      expect(result).toContain(
        'gh is not installed: after the push, open https://github.com/acme/widgets/compare/main...lathe/retry?expand=1',
      );
    } finally {
      process.env.PATH = saved;
    }
  });
});
