import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

function workspace(files: Record<string, string | Buffer>) {
  const dir = writeTree(files);
  return { dir, runtime: createRuntime({ cwd: dir, documentsRoot: tempDir('lathe-home-') }) };
}

describe('read_file', () => {
  it('shows text with 1-based line numbers', async () => {
    const { runtime } = workspace({ 'a.txt': 'alpha\nbeta\n' });
    const r = await runtime.runTool('read_file', { path: 'a.txt' });
    expect(r).toMatchObject({ isError: false, text: '1\talpha\n2\tbeta' });
  });

  it('shows a range with offset and limit, and says how to go on', async () => {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n');
    const { runtime } = workspace({ 'a.txt': lines });
    const r = await runtime.runTool('read_file', { path: 'a.txt', offset: 3, limit: 2 });
    expect(r.text).toMatch(/^3\tline 3\n4\tline 4\n/);
    expect(r.text).toMatch(/Showing lines 3-4 of 10 .*offset=5/);
  });

  it('pages a file larger than the budget instead of flooding', async () => {
    const line = 'x'.repeat(100);
    const { runtime } = workspace({ 'big.txt': Array.from({ length: 1_500 }, () => line).join('\n') });
    const r = await runtime.runTool('read_file', { path: 'big.txt' });
    expect(r.text.length).toBeLessThan(50_000);
    expect(r.text).toMatch(/call read_file with offset=\d+/);
  });

  it('cuts one very long line and says so', async () => {
    const { runtime } = workspace({ 'min.js': 'y'.repeat(10_000) });
    const r = await runtime.runTool('read_file', { path: 'min.js' });
    expect(r.text).toMatch(/line cut: 10,000 characters/);
  });

  it('refuses a binary file with a clear error', async () => {
    const { runtime } = workspace({ 'blob.bin': Buffer.from([0, 1, 2, 3, 0, 255, 0, 7]) });
    const r = await runtime.runTool('read_file', { path: 'blob.bin' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/binary/);
  });

  it('shows invalid UTF-8 as Latin-1 and says so', async () => {
    const { runtime } = workspace({ 'latin.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]) });
    const r = await runtime.runTool('read_file', { path: 'latin.txt' });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/not valid UTF-8/);
    expect(r.text).toMatch(/1\tcafé/);
  });

  it('reads UTF-16 files with a BOM', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\n', 'utf16le')]);
    const { runtime } = workspace({ 'u16.txt': bytes });
    expect((await runtime.runTool('read_file', { path: 'u16.txt' })).text).toBe('1\théllo');
  });

  it('says a missing file does not exist', async () => {
    const { runtime } = workspace({});
    const r = await runtime.runTool('read_file', { path: 'nope.txt' });
    expect(r).toMatchObject({ isError: true });
    expect(r.text).toMatch(/nope.txt does not exist/);
  });

  it('says a folder is a folder', async () => {
    const { runtime } = workspace({ 'd/x.txt': 'x' });
    expect((await runtime.runTool('read_file', { path: 'd' })).text).toMatch(/is a folder/);
  });

  it('refuses an offset past the end', async () => {
    const { runtime } = workspace({ 'a.txt': 'one\n' });
    const r = await runtime.runTool('read_file', { path: 'a.txt', offset: 9 });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/past the end .* 1 lines/);
  });

  it('says an empty file is empty', async () => {
    const { runtime } = workspace({ 'e.txt': '' });
    expect((await runtime.runTool('read_file', { path: 'e.txt' })).text).toMatch(/empty/);
  });

  it('returns an image as an image block, resized when large', async () => {
    const png = await sharp({ create: { width: 3000, height: 1000, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const { runtime } = workspace({ 'pic.png': png });
    const r = await runtime.runTool('read_file', { path: 'pic.png' });
    expect(r.images).toHaveLength(1);
    const meta = await sharp(Buffer.from(r.images![0].data, 'base64')).metadata();
    expect(meta.width).toBe(1568);
  });

  it('renders a notebook as cells', async () => {
    const nb = {
      nbformat: 4,
      nbformat_minor: 5,
      metadata: {},
      cells: [
        {
          cell_type: 'code',
          id: 'c1',
          source: ['print(1)'],
          execution_count: 1,
          metadata: {},
          outputs: [{ output_type: 'stream', name: 'stdout', text: ['1\n'] }],
        },
      ],
    };
    const { runtime } = workspace({ 'n.ipynb': JSON.stringify(nb) });
    const r = await runtime.runTool('read_file', { path: 'n.ipynb' });
    expect(r.text).toMatch(/\[cell 1\] code/);
    expect(r.text).toMatch(/print\(1\)/);
  });

  it('reads files outside the workspace only with approval (headless: denied)', async () => {
    const outside = tempDir();
    writeFileSync(join(outside, 'o.txt'), 'outside');
    const { runtime } = workspace({});
    const r = await runtime.runTool('read_file', { path: join(outside, 'o.txt') });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/readOutside/);
  });

  it('follows the same rule through a symlink that leads outside', async () => {
    const outside = tempDir();
    writeFileSync(join(outside, 'o.txt'), 'outside');
    const { dir, runtime } = workspace({});
    symlinkSync(join(outside, 'o.txt'), join(dir, 'inside.txt'));
    expect((await runtime.runTool('read_file', { path: 'inside.txt' })).text).toMatch(/readOutside/);
  });

  it('rejects unknown arguments with a clear message', async () => {
    const { runtime } = workspace({ 'a.txt': 'a' });
    const r = await runtime.runTool('read_file', { file_path: 'a.txt' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/Invalid arguments for read_file/);
  });

  it('streams a file over 10 MB, showing only the lines asked for', async () => {
    const line = `${'z'.repeat(99)}\n`;
    const { runtime } = workspace({ 'huge.log': line.repeat(120_000) });
    const r = await runtime.runTool('read_file', { path: 'huge.log', offset: 100_000, limit: 3 });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/^100000\tz{99}\n100001\tz{99}\n100002\tz{99}\n/);
    expect(r.text).toMatch(/offset=100003/);
  });
});
