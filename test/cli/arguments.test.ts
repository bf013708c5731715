import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LATHE_BIN, lathe } from '../support/cli.js';
import { tempDir } from '../support/runtime_fixtures.js';

const home = tempDir('lathe-home-');
const env = { LATHE_HOME: home, LATHE_FEATURES: '', NODE_ENV: 'production', LATHE_MODEL: '' };
const files = tempDir('lathe-args-');
const missing = join(files, 'missing');
const notJson = join(files, 'not-json.json');
const notAList = join(files, 'object.json');
const aFolder = join(files, 'folder');
writeFileSync(notJson, '["yes",');
writeFileSync(notAList, '{"first": "yes"}');
mkdirSync(aFolder);

/** Each bad argument: the command line and what its one line must say. */
const BAD_ARGUMENTS: Array<[string, string[], RegExp]> = [
  [
    '--max-turns abc',
    ['-p', 'hi', '--max-turns', 'abc'],
    /--max-turns wants a whole number of 1 or more, not "abc"/,
  ],
  [
    '--max-turns 0',
    ['-p', 'hi', '--max-turns', '0'],
    /--max-turns wants a whole number of 1 or more, not "0"/,
  ],
  [
    '--max-turns -1',
    ['-p', 'hi', '--max-turns', '-1'],
    /--max-turns wants a whole number of 1 or more, not "-1"/,
  ],
  ['--max-turns 2.5', ['-p', 'hi', '--max-turns=2.5'], /--max-turns wants a whole number/],
  ['--cwd to a missing folder (-p)', ['-p', 'hi', '--cwd', missing], /--cwd .*missing: no such folder/],
  [
    '--cwd to a missing folder (tool)',
    ['tool', 'read_file', '--cwd', missing],
    /--cwd .*missing: no such folder/,
  ],
  ['--cwd to a file', ['tools', '--cwd', notJson], /--cwd .*not-json\.json: not a folder/],
  ['--answers missing', ['-p', 'hi', '--answers', missing], /--answers .*missing: no such file/],
  ['--answers unreadable', ['-p', 'hi', '--answers', aFolder], /--answers .*folder: cannot be read/],
  ['--answers not JSON', ['-p', 'hi', '--answers', notJson], /--answers .*not-json\.json: not valid JSON/],
  [
    '--answers not a list',
    ['-p', 'hi', '--answers', notAList],
    /--answers .*: wants a JSON array of strings/,
  ],
  [
    '--approve unknown (-p)',
    ['-p', 'hi', '--approve', 'edits'],
    /--approve edits: unknown approval category \(use read, .* or all\)/,
  ],
  [
    '--approve unknown (tool)',
    ['tool', 'read_file', '--approve', 'bogus'],
    /--approve bogus: unknown approval category/,
  ],
  [
    '--feature unknown',
    ['tools', '--feature', 'nosuch'],
    /--feature nosuch: unknown feature \(features with tools: .*tasks/,
  ],
  [
    '--effort unknown',
    ['-p', 'hi', '--effort', 'extreme'],
    /'extreme' is invalid\. Allowed choices are low, medium, high/,
  ],
  ['--add-dir missing', ['-p', 'hi', '--add-dir', missing], /--add-dir .*missing: no such folder/],
  ['--image missing', ['-p', 'hi', '-i', missing], /--image .*missing: no such file/],
  ['--image without -p', ['--image', notJson], /-i\/--image goes with -p/],
  [
    '--allowed-tools unknown tool',
    ['-p', 'hi', '--allowed-tools', 'read_flie'],
    /no tool is named read_flie/,
  ],
  [
    '--disallowed-tools not a rule',
    ['-p', 'hi', '--disallowed-tools', 'execute_command(x'],
    /not a rule; write tool or tool\(pattern\)/,
  ],
  ['an unknown option', ['-p', 'hi', '--frobnicate'], /unknown option '--frobnicate'/],
  [
    'an option before its command',
    ['--feature', 'tasks', 'tools'],
    /--feature goes after the command: lathe tools --feature/,
  ],
  ['two prompts', ['-p', 'one', 'two'], /two prompts given/],
];

describe('a bad argument', () => {
  it.each(BAD_ARGUMENTS)('%s: one line on stderr, exit code 2', (_name, args, message) => {
    const r = lathe(args, { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^lathe: [^\n]+\n$/);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  });
});

describe('errors that are not the user’s arguments', () => {
  it('show no stack trace, and LATHE_DEBUG=1 adds it', () => {
    const quiet = lathe(['-p', 'hi', '--cwd', missing], { env });
    expect(quiet.stderr.trim().split('\n')).toHaveLength(1);
    const debug = lathe(['-p', 'hi', '--cwd', missing], { env: { ...env, LATHE_DEBUG: '1' } });
    expect(debug.stderr).toMatch(/no such folder\n.*Error.*\n\s+at /s);
  });
});

/** Runs lathe with its standard output already closed by the reader, as `| head -1` leaves it. */
function withClosedOutput(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LATHE_BIN, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a closed output pipe (lathe … | head -1)', () => {
  it.each([[['tools', '--cwd', files]], [['--help']], [['sessions', 'list', '--cwd', files]]])(
    'ends %j quietly',
    async (args) => {
      const r = await withClosedOutput(args);
      expect(r).toEqual({ code: 0, stderr: '' });
    },
  );
});
