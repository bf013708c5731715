import { describe, expect, it } from 'vitest';
import { closestName } from '../../src/util/closest_name.js';
import { lathe } from '../support/cli.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

const env = () => ({ LATHE_HOME: tempDir('lathe-home-'), LATHE_MODEL: '' });

describe('lathe: a mistyped command or provider gets "did you mean"', () => {
  it('takes a bare word one letter off a command for that command: one line, exit 2', () => {
    const r = lathe(['doctr'], { cwd: tempDir(), env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'lathe: unknown command "doctr": did you mean lathe doctor? (to send it as a prompt: lathe -- doctr)\n',
    );
    expect(r.stdout).toBe('');
    expect(lathe(['sesions', '--json'], { cwd: tempDir(), env: env() }).stderr).toContain(
      'did you mean lathe sessions?',
    );
  });

  it('leaves prompts alone: sentences, words far from every command, files, and words after --', () => {
    // Each reaches the model request (no model is set here), not the guess.
    const noModel = /^lathe: no model: /;
    const cwd = writeTree({ doctr: 'a file of that name\n' });
    for (const args of [
      ['-p', 'fix the bug'],
      ['-p', 'hello'],
      ['-p', '--', 'doctr'],
    ])
      expect(lathe(args, { cwd: tempDir(), env: env() }).stderr, args.join(' ')).toMatch(noModel);
    expect(lathe(['doctr', '-p'], { cwd, env: env() }).stderr).toMatch(noModel);
    expect(lathe(['doctr', '-p'], { cwd: tempDir(), env: env() }).stderr).toContain('did you mean');
  });

  it('suggests the provider an unknown one is closest to', () => {
    const r = lathe(['-p', 'hi', '--model', 'antrhopic/claude-sonnet-4-5'], { cwd: tempDir(), env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^lathe: unknown provider "antrhopic": did you mean anthropic\/claude-sonnet-4-5\? /,
    );
    expect(r.stderr.split('\n')).toHaveLength(2);
  });

  it('matches within two edits, one for short words, or a prefix of three letters', () => {
    const names = ['doctor', 'sessions', 'jobs', 'tools', 'tool', 'trust', 'skills'];
    expect(closestName('doctr', names)).toBe('doctor');
    expect(closestName('dcotor', names)).toBe('doctor');
    expect(closestName('job', names)).toBe('jobs');
    expect(closestName('skil', names)).toBe('skills');
    expect(closestName('test', names)).toBeUndefined();
    expect(closestName('hello', names)).toBeUndefined();
    expect(closestName('fix', names)).toBeUndefined();
  });
});
