// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these are shell commands, not templates
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandEngine, decideCommand } from '../support/command_engine.js';
import { tempDir } from '../support/runtime_fixtures.js';

const engine = commandEngine;
const decide = decideCommand;

function git(cwd: string, ...args: string[]): void {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

/** A workspace that is a git repository with one commit. */
function repository(): string {
  const dir = tempDir();
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'a.txt'), 'a\n');
  git(dir, 'add', 'a.txt');
  git(dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'first');
  return dir;
}

describe('path deny rules hold for shell commands that name the path', () => {
  const denyEnv = [
    { permissions: { deny: ['read_file(**/.env)'] }, approvals: { executeAll: 'allow' as const } },
  ];
  it('cat .env is denied by read_file(**/.env)', async () => {
    expect(await decide(engine(denyEnv).e, 'cat .env')).toMatchObject({
      behavior: 'deny',
      reason: expect.stringMatching(/read_file\(\*\*\/\.env\)/),
    });
  });
  it('so are a nested path, a redirection, a pipeline part and a substitution', async () => {
    const { e } = engine(denyEnv);
    for (const text of ['head -n 3 config/.env', 'wc -l < .env', 'ls | grep x .env', 'echo $(cat ./.env)']) {
      expect((await decide(e, text)).behavior, text).toBe('deny');
    }
  });
  it('an option value naming the file counts (--file=.env)', async () => {
    expect((await decide(engine(denyEnv).e, 'grep --file=.env x.txt')).behavior).toBe('deny');
  });
  it('git show HEAD:.env reads .env as committed', async () => {
    expect((await decide(engine(denyEnv).e, 'git show HEAD:.env')).behavior).toBe('deny');
  });
  it('a variable the command sets itself is followed (f=.env; cat $f)', async () => {
    expect((await decide(engine(denyEnv).e, 'for f in a.txt .env; do cat "$f"; done')).behavior).toBe('deny');
  });
  it('a command that does not name the path is not denied', async () => {
    expect((await decide(engine(denyEnv).e, 'cat .env.example')).behavior).toBe('allow');
  });
  it('a write deny rule denies commands that write the path, not those that read it', async () => {
    const { e } = engine([
      { permissions: { deny: ['write_to_file(secrets/**)'] }, approvals: { executeAll: 'allow' } },
    ]);
    expect((await decide(e, 'echo x > secrets/key')).behavior).toBe('deny');
    expect((await decide(e, 'rm secrets/key')).behavior).toBe('deny');
    expect((await decide(e, 'cat secrets/key')).behavior).toBe('allow');
  });
  it('a deny rule still denies under --yolo', async () => {
    expect((await decide(engine(denyEnv, { yolo: true }).e, 'cat .env')).behavior).toBe('deny');
  });
});

describe('protected paths hold for commands that write them', () => {
  it('a redirection into .git/ asks even under --yolo', async () => {
    const d = await decide(engine([], { yolo: true }).e, 'echo x > .git/config');
    expect(d).toMatchObject({ behavior: 'ask', reason: expect.stringMatching(/protected/) });
  });
  it('rm -rf .agents asks even under --yolo', async () => {
    expect((await decide(engine([], { yolo: true }).e, 'rm -rf .agents')).behavior).toBe('ask');
  });
});

describe('readOutside holds for shell commands', () => {
  const cases = [
    'cat /etc/shadow',
    'head ~/.ssh/id_rsa',
    'ls ../other',
    'cat /etc/*',
    'cd /etc && cat passwd',
    'cat $HOME/.bashrc',
    'find . -name x | xargs cat',
  ];
  for (const text of cases) {
    it(`${text} asks as readOutside`, async () => {
      expect(await decide(engine().e, text)).toMatchObject({ behavior: 'ask', category: 'readOutside' });
    });
  }
  it('also in Plan mode', async () => {
    expect(await decide(engine([], { mode: 'plan' }).e, 'cat /etc/hostname')).toMatchObject({
      behavior: 'ask',
      category: 'readOutside',
    });
  });
  it('--approve readOutside answers it', async () => {
    expect((await decide(engine([], { approve: ['readOutside'] }).e, 'cat /etc/hostname')).behavior).toBe(
      'allow',
    );
  });
  it('an allow rule for the command does not lift it', async () => {
    const { e } = engine([{ permissions: { allow: ['execute_command(cat *)'] } }]);
    expect((await decide(e, 'cat /etc/hostname')).behavior).toBe('ask');
    expect((await decide(e, 'cat a.txt')).behavior).toBe('allow');
  });
  it('reads inside the workspace stay executeSafe', async () => {
    const { e } = engine();
    for (const text of [
      'cat a.txt src/b.ts',
      'ls',
      'grep -rn "/usr/bin" .',
      "awk '/x/ {print}' a.txt",
      'for f in *.ts; do wc -l "$f"; done',
      'echo /etc/shadow',
      'head -c 100 /dev/zero',
      'find . -name "$pattern" -type f',
    ]) {
      expect((await decide(e, text)).behavior, text).toBe('allow');
    }
  });
  it('a path under the home folder inside the workspace is inside', async () => {
    const workspace = join(homedir(), `.lathe-test-${process.pid}`);
    mkdirSync(workspace, { recursive: true });
    try {
      const { e } = engine([], { workspace });
      expect((await decide(e, `cat ~/.lathe-test-${process.pid}/x`)).behavior).toBe('allow');
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});

describe('git in Plan mode reads only the workspace repository, with no programs in its config', () => {
  it('git status in a clean repository is read-only', async () => {
    const workspace = repository();
    expect((await decide(engine([], { mode: 'plan', workspace }).e, 'git status')).behavior).toBe('allow');
  });
  it('a committed bare repository with core.fsmonitor is not read-only (cd, -C, --git-dir)', async () => {
    const workspace = repository();
    const evil = join(workspace, 'evil.git');
    git(workspace, 'init', '-q', '--bare', 'evil.git');
    writeFileSync(join(evil, 'config'), '[core]\n\tbare = true\n\tfsmonitor = "touch /tmp/pwned"\n');
    const { e } = engine([], { mode: 'plan', workspace });
    for (const text of ['cd evil.git && git status', 'git -C evil.git log', 'git --git-dir=evil.git log']) {
      const d = await decide(e, text);
      expect(d, text).toMatchObject({ behavior: 'ask', reason: expect.stringMatching(/Plan mode/) });
    }
  });
  it('another repository is not read-only even without programs in its config', async () => {
    const workspace = repository();
    const other = repository();
    const d = await decide(engine([], { mode: 'plan', workspace }).e, `git -C ${other} log`);
    expect(d).toMatchObject({ behavior: 'ask', reason: expect.stringMatching(/another repository/) });
  });
  it('a --work-tree outside the workspace is not read-only', async () => {
    const workspace = repository();
    expect(
      (await decide(engine([], { mode: 'plan', workspace }).e, 'git --work-tree=/ status')).behavior,
    ).toBe('ask');
  });
  it('the workspace repository with a program in its config is not read-only', async () => {
    for (const setting of [
      '[core]\n\tfsmonitor = ./hook.sh\n',
      '[core]\n\tpager = less\n',
      '[diff]\n\texternal = ./d.sh\n',
      '[diff "x"]\n\ttextconv = ./t.sh\n',
      '[filter "lfs"]\n\tclean = ./c.sh\n',
      '[include]\n\tpath = other.config\n',
      '[includeIf "gitdir:/"]\n\tpath = other.config\n',
      '[alias]\n\tst = !sh -c x\n',
      '[core] sshCommand = ./s.sh\n',
    ]) {
      const workspace = repository();
      writeFileSync(join(workspace, '.git', 'config'), `[core]\n\trepositoryformatversion = 0\n${setting}`);
      const d = await decide(engine([], { mode: 'plan', workspace }).e, 'git log');
      expect(d, setting).toMatchObject({ behavior: 'ask', reason: expect.stringMatching(/config/) });
    }
  });
  it('core.fsmonitor = false and ordinary keys keep git read-only', async () => {
    const workspace = repository();
    writeFileSync(
      join(workspace, '.git', 'config'),
      '[core]\n\tfsmonitor = false\n\tfilemode = true\n[remote "origin"]\n\turl = x\n[alias]\n\tst = status\n',
    );
    expect((await decide(engine([], { mode: 'plan', workspace }).e, 'git log')).behavior).toBe('allow');
  });
  it('a config that cannot be read as git reads it counts as naming a program', async () => {
    const workspace = repository();
    writeFileSync(join(workspace, '.git', 'config'), '[core]\n\tpager = a \\\n b\n');
    expect((await decide(engine([], { mode: 'plan', workspace }).e, 'git log')).behavior).toBe('ask');
  });
  it('in a linked worktree, the common config counts and --git-dir=.git follows the .git file', async () => {
    const main = repository();
    const workspace = join(tempDir(), 'wt');
    git(main, 'worktree', 'add', '-q', workspace);
    const { e } = engine([], { mode: 'plan', workspace });
    expect((await decide(e, 'git --git-dir=.git log -1')).behavior).toBe('allow');
    writeFileSync(join(main, '.git', 'config'), '[core]\n\tfsmonitor = ./x\n');
    expect((await decide(e, 'git status')).behavior).toBe('ask');
  });
  it('in Act mode such git asks as executeAll', async () => {
    const workspace = repository();
    writeFileSync(join(workspace, '.git', 'config'), '[core]\n\tfsmonitor = ./x\n');
    expect(await decide(engine([], { workspace }).e, 'git status')).toMatchObject({
      behavior: 'ask',
      category: 'executeAll',
    });
  });
});

describe('commands that reach the network are not read-only while the sandbox lets them', () => {
  const network = [{ sandbox: { network: true } }];
  for (const text of ['npm view lodash', 'git remote show origin']) {
    it(`${text}: read-only with the network cut, executeAll with it on`, async () => {
      expect((await decide(engine().e, text)).behavior).toBe('allow');
      expect(await decide(engine(network).e, text)).toMatchObject({
        behavior: 'ask',
        category: 'executeAll',
      });
    });
  }
  it('a read from /dev/tcp asks as executeAll with the network on (readOutside without)', async () => {
    const text = 'cat < /dev/tcp/example.com/80';
    expect(await decide(engine().e, text)).toMatchObject({ behavior: 'ask', category: 'readOutside' });
    expect(await decide(engine(network).e, text)).toMatchObject({
      behavior: 'ask',
      category: 'executeAll',
      reason: expect.stringMatching(/network connection/),
    });
  });
  it('with the sandbox off as well', async () => {
    expect((await decide(engine([{ sandbox: { mode: 'off' } }]).e, 'npm view lodash')).behavior).toBe('ask');
  });
  it('curl, wget, git fetch, ssh and pip download always ask', async () => {
    const { e } = engine(network);
    for (const text of [
      'curl https://example.com',
      'wget https://example.com',
      'git fetch',
      'ssh host',
      'pip download x',
    ]) {
      expect(await decide(e, text), text).toMatchObject({ behavior: 'ask', category: 'executeAll' });
    }
  });
});
