import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentType } from '../../src/config/agent_types/index.js';
import { lathe } from '../support/cli.js';
import { writeTree } from '../support/runtime_fixtures.js';

/** A cloned repository with a Claude Code agent and a broken lathe one; the user has one of their own. */
function setUp() {
  const dir = writeTree({
    '.claude/agents/reviewer.md':
      '---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep\n---\nReview.',
    '.agents/agents/broken.md': '---\ndescription: broken\nmaxTurns: -1\n---\n',
  });
  const home = writeTree({
    'agents/tester.md': '---\ndescription: Runs the tests\nmodel: small\n---\nTest.',
  });
  return { dir, home, env: { LATHE_HOME: home } };
}

describe('lathe agents list', () => {
  it('lists the built-in types and the user’s, and names what an untrusted folder holds', () => {
    const { dir, home, env } = setUp();
    const { code, stdout, stderr } = lathe(['agents', 'list'], { cwd: dir, env });
    expect(code).toBe(0);
    expect(stdout).toContain('general  (built-in)');
    expect(stdout).toContain('explore  (built-in)\n');
    expect(stdout).toContain(
      `tester  (${join(home, 'agents/tester.md')})\n  Runs the tests\n  tools: the parent's · model: small`,
    );
    expect(stdout).not.toContain('reviewer');
    expect(stdout).toContain('4 agent types (1 custom)');
    expect(stderr).toBe(
      'lathe: warning: this folder is not trusted: its agent types (.agents/agents, .claude/agents) are not read; run `lathe trust` or pass --trust\n',
    );
  });

  it('reads the workspace’s files with --trust: other tools’ names normalised, a broken file a warning', () => {
    const { dir, env } = setUp();
    const { code, stdout, stderr } = lathe(['agents', 'list', '--trust'], { cwd: dir, env });
    expect(code).toBe(0);
    expect(stdout).toContain(
      'reviewer  (.claude/agents/reviewer.md)\n  Reviews code\n  tools: read_file, search_files',
    );
    expect(stderr).toBe(
      `lathe: warning: ${join(dir, '.agents/agents/broken.md')}: "maxTurns" must be a whole number of 1 or more: not loaded\n`,
    );
  });

  it('prints every type as JSON for scripts, with where it came from', () => {
    const { dir, env } = setUp();
    const { code, stdout } = lathe(['agents', 'list', '--json', '--trust', '--cwd', dir], { env });
    expect(code).toBe(0);
    const types = JSON.parse(stdout) as AgentType[];
    expect(types.map((t) => `${t.name}:${t.origin}`)).toEqual([
      'general:built-in',
      'explore:built-in',
      'plan:built-in',
      'tester:user',
      'reviewer:claude',
    ]);
    expect(types[4]).toMatchObject({
      source: join(dir, '.claude/agents/reviewer.md'),
      tools: ['read_file', 'search_files'],
      prompt: 'Review.',
    });
  });
});
