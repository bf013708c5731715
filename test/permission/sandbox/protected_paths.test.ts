import { spawn } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { needs } from '../../support/required_programs.js';
import { runSandboxed, sandboxFor, sharedDir, USERS, writeShared } from './users.js';

needs('bwrap').each(USERS)('protected paths, as $name', (user) => {
  it.skipIf(user.unavailable)(
    '100 commands run at once in a workspace without .agents all succeed',
    async () => {
      const workspace = sharedDir('lathe-sbx-ws-');
      writeShared(workspace, { 'a.txt': 'read me\n' });
      const sandbox = sandboxFor(user, { workspace });
      const runs = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          runSandboxed(sandbox, `cat a.txt && ls >/dev/null && echo ${i}`),
        ),
      );
      const failed = runs.filter((r, i) => r.code !== 0 || r.stdout !== `read me\n${i}\n`);
      expect(failed).toEqual([]);
      expect(existsSync(join(workspace, '.agents'))).toBe(false);
    },
    // A hundred bubblewraps at once take a while on a small, busy machine.
    180_000,
  );

  it.skipIf(user.unavailable)('while a command runs, nothing is created in the workspace', async () => {
    const workspace = sharedDir('lathe-sbx-ws-');
    const sandbox = sandboxFor(user, { workspace });
    const wrapped = await sandbox.wrap(
      ['bash', '-c', 'echo started; while [ ! -e go ]; do sleep 0.02; done'],
      workspace,
    );
    const child = spawn(wrapped!.argv[0], wrapped!.argv.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    expect(readdirSync(workspace)).toEqual([]);
    writeFileSync(join(workspace, 'go'), '');
    expect(await new Promise((resolve) => child.on('close', resolve))).toBe(0);
    expect(wrapped!.cleanup()).toBeUndefined();
  });

  it.skipIf(user.unavailable)('a command cannot leave .agents/settings.json behind', async () => {
    const workspace = sharedDir('lathe-sbx-ws-');
    const sandbox = sandboxFor(user, { workspace });
    const r = await runSandboxed(
      sandbox,
      'mkdir -p .agents && echo "{}" > .agents/settings.json && echo made',
    );
    expect(r.stdout).toBe('made\n');
    expect(existsSync(join(workspace, '.agents'))).toBe(false);
    expect(r.undone).toMatch(/undid the command's changes to \.agents/);
  });

  for (const where of ['inside', 'outside'] as const) {
    it.skipIf(user.unavailable)(
      `a .agents link to a folder ${where} the workspace works and stays read-only`,
      async () => {
        const workspace = sharedDir('lathe-sbx-ws-');
        const target =
          where === 'inside' ? join(workspace, 'config', 'agents') : sharedDir('lathe-sbx-agents-');
        writeShared(workspace, { 'a.txt': 'a\n' });
        mkdirSync(target, { recursive: true });
        writeShared(target, { 'settings.json': '{"safe":true}\n' });
        symlinkSync(target, join(workspace, '.agents'));
        const sandbox = sandboxFor(user, { workspace });

        const read = await runSandboxed(sandbox, 'cat .agents/settings.json && echo x > made.txt');
        expect(read.code).toBe(0);
        expect(read.stdout).toBe('{"safe":true}\n');

        for (const attempt of [
          'echo "{}" > .agents/settings.json',
          `echo "{}" > ${join(target, 'settings.json')}`,
          'echo "{}" > .agents/other.json',
        ]) {
          const r = await runSandboxed(sandbox, `${attempt} && echo DONE`);
          expect(r.stdout, attempt).not.toContain('DONE');
        }
        // The link itself can be swapped inside; it is put back afterwards.
        const swap = await runSandboxed(
          sandbox,
          'rm .agents && mkdir .agents && echo "{}" > .agents/settings.json',
        );
        expect(swap.undone).toMatch(/\.agents/);
        expect(lstatSync(join(workspace, '.agents')).isSymbolicLink()).toBe(true);
        expect(readlinkSync(join(workspace, '.agents'))).toBe(target);
        expect(readFileSync(join(target, 'settings.json'), 'utf8')).toBe('{"safe":true}\n');
        expect(existsSync(join(target, 'other.json'))).toBe(false);
      },
    );
  }

  it.skipIf(user.unavailable)('an existing .agents folder cannot be changed, moved or removed', async () => {
    const workspace = sharedDir('lathe-sbx-ws-');
    writeShared(workspace, { '.agents/settings.json': '{}\n' });
    const sandbox = sandboxFor(user, { workspace });
    for (const attempt of ['echo hacked > .agents/settings.json', 'mv .agents old', 'rm -rf .agents']) {
      const r = await runSandboxed(sandbox, `${attempt} && echo DONE`);
      expect(r.stdout, attempt).not.toContain('DONE');
    }
    expect(readFileSync(join(workspace, '.agents', 'settings.json'), 'utf8')).toBe('{}\n');
  });
});
