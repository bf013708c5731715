import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { listWorktrees } from '../../src/worktree/index.js';
import { lathe, latheAsync } from '../support/cli.js';
import type { ScriptedTurn } from '../support/fake_model/types.js';
import { FakeModelServer } from '../support/fake_model_server.js';
import { closeFakeServers, fakeModelEnv, runHeadless } from '../support/headless_run.js';
import { eventually } from '../support/processes.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { checkoutState, git, gitSucceeds, repository } from './repos.js';

const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await closeFakeServers();
});

/**
 * A real lathe run that enters worktree `name` (and, with `work`, writes a file in it), then
 * waits on the model: it is killed there with SIGKILL. Returns the pid it had.
 */
async function killedMidRun(repo: string, home: string, name: string, work: boolean): Promise<number> {
  const turns: ScriptedTurn[] = [{ toolCalls: [{ name: 'enter_worktree', input: { name } }] }];
  if (work)
    turns.push({
      toolCalls: [{ name: 'write_to_file', input: { path: 'work.txt', content: 'unfinished\n' } }],
    });
  turns.push({ hang: true });
  const server = await FakeModelServer.start({ turns });
  servers.push(server);
  let child: ChildProcess | undefined;
  const run = latheAsync(
    [
      '-p',
      'work in a worktree',
      '--model',
      'anthropic/claude-sonnet-4-5',
      '--feature',
      'worktree',
      '--approve',
      'edit',
    ],
    { cwd: repo, env: fakeModelEnv(server, home), onSpawn: (c) => (child = c) },
  );
  // The hanging request is the last: by then the worktree is made (and written in).
  await eventually(() => server.requests.filter((r) => r.kind === 'model').length === turns.length);
  const pid = child!.pid!;
  child!.kill('SIGKILL');
  const ended = await run;
  expect(ended.signal).toBe('SIGKILL');
  return pid;
}

describe('a worktree whose lathe process was killed with SIGKILL', () => {
  it('is listed as stale, and the next start commits its work on its branch and removes it', async () => {
    const repo = repository();
    const home = tempDir('lathe-home-');
    const before = checkoutState(repo);
    const pid = await killedMidRun(repo, home, 'killed', true);

    const [left] = await listWorktrees({ documentsRoot: home });
    expect(left).toMatchObject({ name: 'killed', state: 'stale', changes: { files: 1, commits: 0 } });
    expect(left.owner?.pid).toBe(pid);
    const listed = lathe(['worktrees', 'list', '--json'], { env: { LATHE_HOME: home } });
    expect(JSON.parse(listed.stdout)).toMatchObject([
      { name: 'killed', branch: 'lathe/killed', state: 'stale' },
    ]);

    const next = await runHeadless(repo, [{ text: 'hello' }], [], { home });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toContain(
      `lathe: pruned worktree killed of ${repo} (its process ${pid} is gone): its changes are committed on lathe/killed`,
    );
    expect(git(repo, 'show', 'lathe/killed:work.txt')).toBe('unfinished\n');
    expect(existsSync(left.dir)).toBe(false);
    expect(await listWorktrees({ documentsRoot: home })).toEqual([]);
    expect(checkoutState(repo)).toEqual(before);
  });

  it('is pruned by lathe worktrees prune; one with no changes goes with its branch', async () => {
    const repo = repository();
    const home = tempDir('lathe-home-');
    const pid = await killedMidRun(repo, home, 'idle', false);
    expect(lathe(['worktrees', 'list'], { env: { LATHE_HOME: home } }).stdout).toMatch(
      new RegExp(`^idle  lathe/idle  stale \\(pid ${pid}\\)  no changes\\n`),
    );

    const pruned = lathe(['worktrees', 'prune'], { env: { LATHE_HOME: home } });
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toBe(
      `pruned worktree idle of ${repo} (its process ${pid} is gone): nothing had changed; it and lathe/idle were removed\n`,
    );
    expect(gitSucceeds(repo, 'rev-parse', '--verify', 'lathe/idle')).toBe(false);
    expect(lathe(['worktrees', 'prune'], { env: { LATHE_HOME: home } }).stdout).toBe(
      'No leftover worktrees.\n',
    );
  });
});
