import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

const posix = process.platform !== 'win32';

/**
 * A workspace holding a FIFO with no writer (`pipe.txt`, `pipe.ipynb`, `pipe.ts`), a symlink to
 * /dev/zero (`zero.txt`) and a Unix socket (`sock.txt`). Opening the FIFO the ordinary way
 * would block forever, so a tool that does not refuse it would hang the test.
 */
async function specialWorkspace() {
  const dir = writeTree({ 'ok.txt': 'fine\n' });
  for (const name of ['pipe.txt', 'pipe.ipynb', 'pipe.ts']) execFileSync('mkfifo', [join(dir, name)]);
  symlinkSync('/dev/zero', join(dir, 'zero.txt'));
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(join(dir, 'sock.txt'), resolve));
  // --yolo: /dev/zero lies outside the workspace; only the file-type check may refuse it.
  const runtime = createRuntime({ cwd: dir, documentsRoot: tempDir('lathe-home-'), yolo: true, env: {} });
  return { dir, runtime, close: () => server.close() };
}

const KINDS = [
  ['pipe.txt', /pipe\.txt is a FIFO \(named pipe\), not a regular file/],
  ['zero.txt', /zero\.txt is a character device, not a regular file/],
  ['sock.txt', /sock\.txt is a socket, not a regular file/],
] as const;

describe.runIf(posix)('FIFOs, sockets and devices are refused at once', () => {
  it.each(KINDS)('read_file refuses %s', async (name, message) => {
    const { runtime, close } = await specialWorkspace();
    const r = await runtime.runTool('read_file', { path: name });
    close();
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(message);
  });

  it.each(KINDS)('edit_file refuses %s', async (name, message) => {
    const { runtime, close } = await specialWorkspace();
    const r = await runtime.runTool('edit_file', { path: name, old_string: 'a', new_string: 'b' });
    close();
    expect(r).toMatchObject({ isError: true, text: expect.stringMatching(message) });
  });

  it.each(KINDS)('replace_in_file refuses %s', async (name, message) => {
    const { runtime, close } = await specialWorkspace();
    const diff = '------- SEARCH\na\n=======\nb\n+++++++ REPLACE';
    const r = await runtime.runTool('replace_in_file', { path: name, diff });
    close();
    expect(r).toMatchObject({ isError: true, text: expect.stringMatching(message) });
  });

  it.each(KINDS)('write_to_file refuses to overwrite %s', async (name, message) => {
    const { runtime, close } = await specialWorkspace();
    const r = await runtime.runTool('write_to_file', { path: name, content: 'x' });
    close();
    expect(r).toMatchObject({ isError: true, text: expect.stringMatching(message) });
  });

  it.each(KINDS)('apply_patch refuses %s', async (name, message) => {
    const { runtime, close } = await specialWorkspace();
    const patch = `*** Begin Patch\n*** Update File: ${name}\n@@\n-a\n+b\n*** End Patch`;
    const r = await runtime.runTool('apply_patch', { input: patch });
    close();
    expect(r).toMatchObject({ isError: true, text: expect.stringMatching(message) });
  });

  it('notebook_edit refuses a FIFO', async () => {
    const { runtime, close } = await specialWorkspace();
    const r = await runtime.runTool('notebook_edit', {
      path: 'pipe.ipynb',
      edit_mode: 'delete',
      cell_number: 1,
    });
    close();
    expect(r).toMatchObject({ isError: true, text: expect.stringMatching(/FIFO \(named pipe\)/) });
  });

  it('list_code_definition_names refuses a FIFO, and skips one in a folder', async () => {
    const { runtime, dir, close } = await specialWorkspace();
    const one = await runtime.runTool('list_code_definition_names', { path: 'pipe.ts' });
    const folder = await runtime.runTool('list_code_definition_names', { path: dir });
    close();
    expect(one).toMatchObject({ isError: true, text: expect.stringMatching(/FIFO \(named pipe\)/) });
    expect(folder.isError).toBe(false);
  });

  it('replace_text passes over a FIFO its glob names', async () => {
    const { runtime, close } = await specialWorkspace();
    const r = await runtime.runTool('replace_text', { glob: 'pipe.*', find: 'a', replace: 'b' });
    close();
    expect(r).toMatchObject({ isError: false, text: expect.stringMatching(/^No file matching/) });
  });
});
