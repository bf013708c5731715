import { describe, expect, it } from 'vitest';
import { commandEngine, decideCommand } from '../support/command_engine.js';

describe('writing options of allowlisted programs reach the write and protected-path rules', () => {
  it('base64 -d -i x.b64 -o .git/hooks/pre-commit asks, even under --yolo', async () => {
    const d = await decideCommand(
      commandEngine([], { yolo: true }).e,
      'base64 -d -i x.b64 -o .git/hooks/pre-commit',
    );
    expect(d).toMatchObject({ behavior: 'ask', sticky: 'protected', reason: expect.stringMatching(/\.git/) });
  });
  it('rg -z, tree -o, xxd -r IN OUT and sort -T ask as executeAll', async () => {
    const { e } = commandEngine();
    for (const text of [
      'rg -z foo',
      'tree -o out',
      'xxd -r x.hex out',
      'sort -T tmp f',
      'git blame --output=o a',
    ]) {
      expect(await decideCommand(e, text), text).toMatchObject({ behavior: 'ask', category: 'executeAll' });
    }
  });
  it('a write deny rule holds for the file such an option names', async () => {
    const { e } = commandEngine([
      { permissions: { deny: ['write_to_file(secrets/**)'] }, approvals: { executeAll: 'allow' } },
    ]);
    expect((await decideCommand(e, 'base64 -d x.b64 --output=secrets/key')).behavior).toBe('deny');
    expect((await decideCommand(e, 'uniq in secrets/key')).behavior).toBe('deny');
  });
});

describe('deny and ask rules: * matches any characters', () => {
  it('deny npm run dangerous* stops npm run dangerous-script, under --yolo too', async () => {
    const { e } = commandEngine([{ permissions: { deny: ['execute_command(npm run dangerous*)'] } }], {
      yolo: true,
    });
    for (const text of ['npm run dangerous-script', 'npm run dangerous', 'cd a && npm run dangerous:all']) {
      expect(await decideCommand(e, text), text).toMatchObject({
        behavior: 'deny',
        reason: expect.stringMatching(/npm run dangerous\*/),
      });
    }
    expect((await decideCommand(e, 'npm run safe')).behavior).toBe('allow');
  });
  it('an ask rule asks for npm run deploy-prod although an allow rule covers npm run', async () => {
    const { e } = commandEngine([
      { permissions: { allow: ['execute_command(npm run)'], ask: ['execute_command(npm run deploy:*)'] } },
    ]);
    expect(await decideCommand(e, 'npm run deploy-prod')).toMatchObject({
      behavior: 'ask',
      reason: expect.stringMatching(/rule execute_command\(npm run deploy:\*\) asks/),
    });
    expect((await decideCommand(e, 'npm run build')).behavior).toBe('allow');
  });
  it('a deny rule holds through wrappers and quotes', async () => {
    const { e } = commandEngine([{ permissions: { deny: ['execute_command(rm)'] } }], { yolo: true });
    for (const text of ["'rm' -rf x", 'timeout 5 rm x', 'env A=1 rm x', 'find . | xargs rm']) {
      expect((await decideCommand(e, text)).behavior, text).toBe('deny');
    }
  });
  it('allow rules that are broader than they look are warned about when loaded', () => {
    const { e } = commandEngine([
      {
        permissions: { allow: ['execute_command(git *)', 'execute_command(npm test)', 'execute_command(*)'] },
      },
    ]);
    expect(e.warnings).toEqual([
      'layer0: allow rule execute_command(git *) is broader than it looks: it allows every git subcommand (git push --force too)',
      'layer0: allow rule execute_command is broader than it looks: it allows every command',
    ]);
  });
});

describe('bash -lc SCRIPT is judged by the script', () => {
  it('a read-only script runs unasked', async () => {
    const { e } = commandEngine();
    for (const text of [
      "bash -lc 'ls -la'",
      'bash -lc "rg foo src | head"',
      "zsh -lc 'git status && git diff'",
    ]) {
      expect((await decideCommand(e, text)).behavior, text).toBe('allow');
    }
  });
  it('a script that writes asks as executeAll, one that reads outside as readOutside', async () => {
    const { e } = commandEngine();
    expect(await decideCommand(e, "bash -lc 'rm -rf build'")).toMatchObject({
      behavior: 'ask',
      category: 'executeAll',
    });
    expect(await decideCommand(e, "bash -lc 'cat /etc/passwd'")).toMatchObject({
      behavior: 'ask',
      category: 'readOutside',
    });
  });
  it('a deny rule on an inner command, or on the shell, denies it', async () => {
    const { e } = commandEngine(
      [{ permissions: { deny: ['execute_command(rm *)', 'execute_command(zsh*)'] } }],
      {
        yolo: true,
      },
    );
    expect(await decideCommand(e, "bash -lc 'ls && rm -rf build'")).toMatchObject({
      behavior: 'deny',
      reason: expect.stringMatching(/rm \*/),
    });
    expect((await decideCommand(e, "zsh -lc 'ls'")).behavior).toBe('deny');
  });
  it('path deny rules and protected paths hold inside the script', async () => {
    const { e } = commandEngine([{ permissions: { deny: ['read_file(**/.env)'] } }], { yolo: true });
    expect((await decideCommand(e, "bash -lc 'cat .env'")).behavior).toBe('deny');
    expect(await decideCommand(e, "bash -lc 'echo x > .git/hooks/pre-commit'")).toMatchObject({
      behavior: 'ask',
      sticky: 'protected',
    });
  });
  it('an allow rule covers the inner command, and one written for the whole bash -lc still does', async () => {
    const { e } = commandEngine([
      { permissions: { allow: ['execute_command(npm test)', "execute_command(bash -lc 'make all')"] } },
    ]);
    expect((await decideCommand(e, "bash -lc 'npm test'")).behavior).toBe('allow');
    expect((await decideCommand(e, "bash -lc 'make all'")).behavior).toBe('allow');
    expect((await decideCommand(e, "bash -lc 'npm test && npm publish'")).behavior).toBe('ask');
  });
  it('odd forms keep asking', async () => {
    const { e } = commandEngine();
    for (const text of ["bash -lc 'ls' extra", "bash -i -c 'ls'", "bash -c 'ls; ('", "sh -c 'ls $X'"]) {
      expect(await decideCommand(e, text), text).toMatchObject({ behavior: 'ask', category: 'executeAll' });
    }
  });
});
