import { execFileSync } from 'node:child_process';
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { latheAsync } from '../../support/cli.js';
import { FakeModelServer, type ScriptedTurn } from '../../support/fake_model_server.js';
import { fakeModelEnv } from '../../support/headless_run.js';
import { testNeeds } from '../../support/required_programs.js';
import { tempDir } from '../../support/runtime_fixtures.js';

// `lathe -p "/name args"`, the built lathe against the fake model server.

const FIXTURES = fileURLToPath(new URL('../../fixtures/commands/workspace', import.meta.url));
const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const done = (result: string): ScriptedTurn => ({
  toolCalls: [{ name: 'attempt_completion', input: { result } }],
});

async function run(prompt: string, turns: ScriptedTurn[], options: { dir?: string; args?: string[] } = {}) {
  const server = await FakeModelServer.start({ turns });
  servers.push(server);
  const dir = options.dir ?? tempDir('lathe-commands-');
  if (!options.dir) cpSync(FIXTURES, dir, { recursive: true });
  const home = tempDir('lathe-home-');
  const result = await latheAsync(
    ['-p', prompt, '--model', 'anthropic/claude-sonnet-4-5', '--trust', ...(options.args ?? [])],
    { cwd: dir, env: { ...fakeModelEnv(server, home), HOME: home } },
  );
  return { ...result, dir, requests: server.requests.filter((r) => r.kind === 'model') };
}

describe('lathe -p "/name args"', () => {
  testNeeds('bwrap')('sends the expanded command', async () => {
    const { code, requests, stderr } = await run('/greet Ada', [done('Hello, Ada.')]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(requests[0].lastUserText).toBe('Say hello to Ada, politely.');
  });

  it('sends a workflow with its steps', async () => {
    const { code, requests } = await run('/release v3', [done('Released.')]);
    expect(code).toBe(0);
    expect(requests[0].lastUserText).toContain('Follow the workflow "release"');
    expect(requests[0].lastUserText).toContain('2. Bump the version to v3.');
  });

  it('an unknown /name is an error listing the commands, and nothing is sent', async () => {
    const { code, stderr, requests } = await run('/deploy now', [done('unused')]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      'lathe: no command /deploy: the commands here are /greet, /branch, /git:commit, /plain, /outside, /review, /summary, /release, /triage',
    );
    expect(requests).toHaveLength(0);
  });

  it('a prompt that starts with an existing path goes to the model as typed', async () => {
    const { code, requests } = await run('/tmp is full, why?', [done('Disk.')]);
    expect(code).toBe(0);
    expect(requests[0].lastUserText).toBe('/tmp is full, why?');
  });

  it("runs the prompt on the command's model (haiku: the provider's small model)", async () => {
    const { requests } = await run('/git:commit src "fix it"', [done('Committed.')]);
    expect(requests[0].body.model).toBe('claude-haiku-4-5');
  });

  testNeeds('bwrap')(
    "pre-approves the command's allowed-tools for its prompt: git add runs without an ask",
    async () => {
      const dir = tempDir('lathe-commands-');
      cpSync(FIXTURES, dir, { recursive: true });
      execFileSync('git', ['init', '-q'], { cwd: dir });
      execFileSync('touch', ['a.txt'], { cwd: dir });
      const turns: ScriptedTurn[] = [
        { toolCalls: [{ name: 'execute_command', input: { command: 'git add a.txt' } }] },
        done('Staged.'),
      ];
      const { code, requests } = await run('/git:commit a.txt "add a"', turns, { dir });
      expect(code).toBe(0);
      const staged = execFileSync('git', ['diff', '--cached', '--name-only'], { cwd: dir, encoding: 'utf8' });
      expect(staged.trim()).toBe('a.txt');
      expect(JSON.stringify(requests[1].body.messages)).not.toContain('denied');
    },
  );

  testNeeds('bwrap')('without the grant, the same git add is refused', async () => {
    const dir = tempDir('lathe-commands-');
    execFileSync('git', ['init', '-q'], { cwd: dir });
    execFileSync('touch', ['a.txt'], { cwd: dir });
    const turns: ScriptedTurn[] = [
      { toolCalls: [{ name: 'execute_command', input: { command: 'git add a.txt' } }] },
      done('Could not.'),
    ];
    await run('stage a.txt', turns, { dir });
    expect(existsSync(join(dir, '.git/index'))).toBe(false);
  });
});
