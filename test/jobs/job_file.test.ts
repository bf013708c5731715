import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateSettings } from '../../src/config/validate.js';
import { readJobFile } from '../../src/jobs/job_file.js';
import { parseJobSpec } from '../../src/jobs/job_spec.js';
import { lathe } from '../support/cli.js';
import { tempDir } from '../support/runtime_fixtures.js';

function jobFile(name: string, text: string): string {
  const path = join(tempDir('lathe-jobfile-'), name);
  writeFileSync(path, text);
  return path;
}

describe('job files', () => {
  it('reads JSON Lines, filling in the defaults and resolving a relative repo against the file', () => {
    const path = jobFile(
      'batch.jsonl',
      '{"repo": "app", "prompt": "fix it"}\n\n{"id": "two", "repo": "https://example.com/x.git", "prompt": "p", "output": "patch"}\n',
    );
    const [first, second] = readJobFile(path);
    expect(first).toMatchObject({
      repo: join(path, '..', 'app'),
      ref: 'HEAD',
      output: 'branch',
      budget: {},
      setup: [],
      include: [],
      push: false,
    });
    expect(first.id).toMatch(/^job-[0-9a-f]{16}$/);
    expect(second).toMatchObject({ id: 'two', repo: 'https://example.com/x.git', output: 'patch' });
  });

  it('names the line and the field of a malformed JSONL job', () => {
    const path = jobFile(
      'batch.jsonl',
      '{"repo": "a", "prompt": "p"}\n{"repo": "a", "prompt": "p", "budget": {"turns": 0}}\n',
    );
    expect(() => readJobFile(path)).toThrow(
      'batch.jsonl line 2: "budget.turns" must be a whole number of at least 1',
    );
  });

  it('names the line of JSONL that does not parse', () => {
    const path = jobFile('batch.jsonl', '{"repo": "a", "prompt": "p"}\n{"repo": "a",\n');
    expect(() => readJobFile(path)).toThrow(/^batch\.jsonl line 2: not valid JSON/);
  });

  it('names the line and the field of a job in a YAML list', () => {
    const path = jobFile('batch.yaml', '- repo: a\n  prompt: p\n- repo: a\n  prompt: p\n  output: pr\n');
    expect(() => readJobFile(path)).toThrow('batch.yaml line 3: "output" must be "branch" or "patch"');
  });

  it('refuses a field no job has', () => {
    const path = jobFile('batch.yaml', '- repo: a\n  promt: p\n');
    expect(() => readJobFile(path)).toThrow(/^batch\.yaml line 1: "promt" is not a job field/);
  });

  it('gives the same job the same id, whatever the order of its keys', () => {
    const a = parseJobSpec({ repo: '/r', prompt: 'p', budget: { turns: 3, seconds: 9 } }, 'x', '/');
    const b = parseJobSpec({ budget: { seconds: 9, turns: 3 }, prompt: 'p', repo: '/r' }, 'x', '/');
    const c = parseJobSpec({ repo: '/r', prompt: 'p', budget: { turns: 4, seconds: 9 } }, 'x', '/');
    expect(a.id).toBe(b.id);
    expect(c.id).not.toBe(a.id);
  });

  it('keeps one of a job given twice, and refuses two different jobs under one id', () => {
    const same = jobFile(
      'same.jsonl',
      '{"id": "x", "repo": "/a", "prompt": "p"}\n{"id": "x", "repo": "/a", "prompt": "p"}\n',
    );
    expect(readJobFile(same)).toHaveLength(1);
    const clash = jobFile(
      'clash.jsonl',
      '{"id": "x", "repo": "/a", "prompt": "p"}\n{"id": "x", "repo": "/a", "prompt": "q"}\n',
    );
    expect(() => readJobFile(clash)).toThrow('clash.jsonl: two different jobs have the id "x"');
  });

  it('refuses push for a local repository and an id that cannot name a branch', () => {
    expect(() => parseJobSpec({ repo: '/a', prompt: 'p', push: true }, 'flags', '/')).toThrow(
      'flags: "push" needs a remote repo (a git URL)',
    );
    expect(() => parseJobSpec({ id: '../x', repo: '/a', prompt: 'p' }, 'flags', '/')).toThrow(
      /^flags: "id" must be 1 to 64/,
    );
  });

  it('refuses include for a repository given by URL: the files are copied from a local checkout', () => {
    expect(() =>
      parseJobSpec({ repo: 'https://example.com/x.git', prompt: 'p', include: ['.env'] }, 'flags', '/'),
    ).toThrow(
      'flags: "include" needs a local repo: the files are copied from its checkout; for a git URL, make them with "setup" commands',
    );
    expect(parseJobSpec({ repo: '/a', prompt: 'p', include: ['.env'] }, 'flags', '/').include).toEqual([
      '.env',
    ]);
  });

  it('says so in one line at lathe jobs submit, and queues nothing of the file', () => {
    const path = jobFile(
      'batch.jsonl',
      '{"repo": "/a", "prompt": "p"}\n{"repo": "git@example.com:team/x.git", "prompt": "p", "include": [".env"]}\n',
    );
    const env = { LATHE_HOME: tempDir('lathe-home-') };
    const result = lathe(['jobs', 'submit', path], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'lathe: batch.jsonl line 2: "include" needs a local repo: the files are copied from its checkout; for a git URL, make them with "setup" commands\n',
    );
    expect(lathe(['jobs', 'list'], { env }).stdout).toBe('no jobs\n');
  });

  it('checks the jobs section of settings: the queue address, concurrency and lock time', () => {
    expect(() =>
      validateSettings({ jobs: { queue: 'http://redis:6379', concurrency: 0 } }, 'settings.json'),
    ).toThrow(
      'settings.json: "jobs.queue" must be "local" or a redis:// address (found "http://redis:6379"); "jobs.concurrency" must be a whole number of at least 1 (found 0)',
    );
    expect(
      validateSettings({ jobs: { queue: 'redis://10.0.0.5:6379/0', concurrency: 4, lockSeconds: 30 } }, 's'),
    ).toBeTruthy();
  });
});
