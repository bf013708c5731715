import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntime, type RuntimeOptions } from '../../src/runtime/create_runtime.js';
import type { ApprovalRequest } from '../../src/tool/run_call.js';
import { testNeeds } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';

/** A runtime over a workspace holding a.txt, in the real sandbox, whose asks are recorded and declined. */
function runtime(options: RuntimeOptions = {}) {
  const cwd = tempDir();
  writeFileSync(join(cwd, 'a.txt'), 'hello\n');
  const asked: ApprovalRequest[] = [];
  const rt = createRuntime({
    cwd,
    documentsRoot: tempDir('lathe-home-'),
    env: {},
    askUser: async (request) => {
      asked.push(request);
      return { approved: false };
    },
    ...options,
  });
  return { rt, asked, cwd };
}

describe('execute_command through the runtime, the permission engine and the sandbox', () => {
  testNeeds('bwrap')("bash -lc 'ls -la' runs without asking", async () => {
    const { rt, asked } = runtime();
    const result = await rt.runTool('execute_command', { command: "bash -lc 'ls -la'" });
    expect(asked).toEqual([]);
    expect(result.text).toMatch(/a\.txt/);
  });

  it("bash -lc 'rm -f a.txt' asks, and runs nothing when declined", async () => {
    const { rt, asked, cwd } = runtime();
    const result = await rt.runTool('execute_command', { command: "bash -lc 'rm -f a.txt'" });
    expect(asked).toHaveLength(1);
    expect(result.text).toBe('The user declined execute_command.');
    expect(existsSync(join(cwd, 'a.txt'))).toBe(true);
  });

  it('a deny rule on an inner command refuses the script under --yolo', async () => {
    const { rt, cwd } = runtime({
      yolo: true,
      settings: { permissions: { deny: ['execute_command(rm*)'] } },
    });
    const result = await rt.runTool('execute_command', { command: "bash -lc 'ls && rm -f a.txt'" });
    expect(result).toMatchObject({
      isError: true,
      text: expect.stringMatching(/denied by rule execute_command\(rm\*\)/),
    });
    expect(existsSync(join(cwd, 'a.txt'))).toBe(true);
  });

  it('deny npm run dangerous* refuses npm run dangerous-script', async () => {
    const { rt } = runtime({
      yolo: true,
      settings: { permissions: { deny: ['execute_command(npm run dangerous*)'] } },
    });
    const result = await rt.runTool('execute_command', { command: 'npm run dangerous-script' });
    expect(result).toMatchObject({ isError: true, text: expect.stringMatching(/denied by rule/) });
  });

  testNeeds('bwrap')(
    'base64 -o into .git/hooks asks as a protected path, so it does not run unasked',
    async () => {
      const { rt, asked, cwd } = runtime();
      mkdirSync(join(cwd, '.git', 'hooks'), { recursive: true });
      writeFileSync(join(cwd, 'x.b64'), `${Buffer.from('#!/bin/sh\necho pwned\n').toString('base64')}\n`);
      await rt.runTool('execute_command', { command: 'base64 -d -i x.b64 -o .git/hooks/pre-commit' });
      expect(asked.map((request) => request.reason)).toEqual([
        expect.stringMatching(/pre-commit is .*protected/),
      ]);
      expect(existsSync(join(cwd, '.git', 'hooks', 'pre-commit'))).toBe(false);
    },
  );

  it('an allow rule broader than it looks is warned about at the start', () => {
    const { rt } = runtime({ settings: { permissions: { allow: ['execute_command(git *)'] } } });
    expect(rt.warnings).toContainEqual(
      expect.stringMatching(
        /allow rule execute_command\(git \*\) is broader than it looks: it allows every git subcommand/,
      ),
    );
  });
});
