import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { call, type Reply, say, startParent, subagentReports } from '../../support/subagent_harness.js';
import { checkoutState, git, latheBranches, repository, writeFiles } from '../../worktree/repos.js';

type Harness = Awaited<ReturnType<typeof startParent>>;
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const reports = (harness: Harness) => subagentReports(harness.events);

describe('children with isolation "worktree"', () => {
  it('six in parallel each commit only their own file on their own branch; the main checkout is untouched', async () => {
    const repo = repository({ 'README.md': 'hello\n' });
    // A dirty main checkout with a stash entry: none of it may change.
    writeFiles(repo, { 'stashed.txt': 'stashed\n' });
    git(repo, 'stash', 'push', '-q', '--include-untracked', '-m', 'kept aside');
    writeFiles(repo, { 'README.md': 'edited, not committed\n', 'untracked.txt': 'new\n' });
    const before = checkoutState(repo);
    const names = ['one', 'two', 'three', 'four', 'five', 'six'];
    const tasks = names.map((n) => ({ description: n, prompt: `write ${n}`, isolation: 'worktree' }));
    const reply: Reply = (sender, i) => {
      if (sender === 'parent') return i === 0 ? call('use_subagents', { tasks }) : say('all written');
      const name = sender.slice('write '.length);
      return i === 0
        ? call('write_to_file', { path: `${name}.txt`, content: `${name}\n` })
        : say(`wrote ${name}`);
    };
    harness = await startParent({ reply, cwd: repo, settings: { approvals: { edit: 'allow' } } });
    await harness.agent.send('write six files');

    const got = reports(harness);
    expect(got.map((r) => r.status)).toEqual(names.map(() => 'completed'));
    expect(latheBranches(repo).sort()).toEqual(got.map((r) => `lathe/${r.id}`).sort());
    const base = git(repo, 'rev-parse', 'HEAD').trim();
    for (const [i, report] of got.entries()) {
      const branch = report.worktree!.branch;
      expect(git(repo, 'diff', '--name-only', base, branch).trim()).toBe(`${names[i]}.txt`);
      expect(report.worktree!.diffstat).toContain(`${names[i]}.txt`);
      // The folder is gone; the branch holds the work.
      expect(existsSync(report.worktree!.dir)).toBe(false);
    }
    for (const name of names) expect(existsSync(join(repo, `${name}.txt`))).toBe(false);
    expect(checkoutState(repo)).toEqual(before);
  });

  it('fails the child with the reason, and never runs it in the main checkout, when no worktree can be made', async () => {
    const folder = repository();
    git(folder, 'rev-parse', 'HEAD');
    const notRepo = join(folder, '..', `${folder.split('/').pop()}-plain`);
    writeFiles(notRepo, { 'a.txt': 'a\n' });
    const reply: Reply = (sender, i) => {
      if (sender === 'parent')
        return i === 0
          ? call('use_subagents', {
              tasks: [{ description: 'w', prompt: 'write it', isolation: 'worktree' }],
            })
          : say('done');
      return call('write_to_file', { path: 'b.txt', content: 'b\n' });
    };
    harness = await startParent({ reply, cwd: notRepo, settings: { approvals: { edit: 'allow' } } });
    await harness.agent.send('go');
    const [report] = reports(harness);
    expect(report.status).toBe('failed');
    expect(report.text).toMatch(/worktree could not be made: .*not in a git repository/);
    expect(harness.requestsOf('write it')).toHaveLength(0);
    expect(existsSync(join(notRepo, 'b.txt'))).toBe(false);
  });
});
