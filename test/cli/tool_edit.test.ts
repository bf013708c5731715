import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lathe } from '../support/cli.js';
import { closeFakeServers, runHeadless } from '../support/headless_run.js';
import { tempDir } from '../support/runtime_fixtures.js';

afterEach(closeFakeServers);

const env = () => ({ LATHE_HOME: tempDir('lathe-home-'), LATHE_FEATURES: '', NODE_ENV: 'test' });

const NOTEBOOK = JSON.stringify({
  nbformat: 4,
  nbformat_minor: 5,
  metadata: {},
  cells: [{ cell_type: 'code', id: 'c1', metadata: {}, source: ['x = 1'], execution_count: 1, outputs: [] }],
});

describe('lathe tool: a call typed in the user’s own shell counts as having read the file', () => {
  it('edit_file edits a file nothing read before', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.txt'), 'one\ntwo\n');
    const input = JSON.stringify({ path: 'a.txt', old_string: 'two', new_string: 'TWO' });
    const r = lathe(['tool', 'edit_file', '--input', input, '--approve', 'edit', '--cwd', dir], {
      env: env(),
    });
    expect(r.stdout).toMatch(/^Edited a\.txt \(1 replacement\)\./);
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('one\nTWO\n');
  });

  it('notebook_edit edits a notebook nothing read before', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'n.ipynb'), NOTEBOOK);
    const input = JSON.stringify({
      path: 'n.ipynb',
      edit_mode: 'replace',
      cell_id: 'c1',
      new_source: 'x = 2',
    });
    const r = lathe(['tool', 'notebook_edit', '--input', input, '--approve', 'edit', '--cwd', dir], {
      env: env(),
    });
    expect(r.code, r.stdout).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'n.ipynb'), 'utf8')).cells[0].source).toEqual(['x = 2']);
  });

  it('the model’s calls keep the read-before-edit rule', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.txt'), 'one\ntwo\n');
    const run = await runHeadless(
      dir,
      [
        {
          toolCalls: [{ name: 'edit_file', input: { path: 'a.txt', old_string: 'two', new_string: 'TWO' } }],
        },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'Tried.' } }] },
      ],
      ['--yolo'],
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.requests[1].toolResults[0].content).toBe(
      'a.txt has not been read in this session. Read it with read_file first, then edit.',
    );
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('one\ntwo\n');
  });
});
