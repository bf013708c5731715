import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isImagePath, MAX_IMAGE_BYTES, renderImage } from '../../src/tools/files/render/image.js';
import { notebookImages, renderNotebook } from '../../src/tools/files/render/notebook.js';
import { parsePageRange, renderPdf } from '../../src/tools/files/render/pdf.js';
import { buildPdf } from '../support/pdf.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lathe-render-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes bytes to the temp folder and reads them back, as the read_file tool would. */
async function roundTrip(name: string, bytes: Uint8Array): Promise<Uint8Array> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return new Uint8Array(await readFile(path));
}

function solidImage(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 30 } } });
}

async function dimensionsOf(base64: string) {
  const { width, height, format } = await sharp(Buffer.from(base64, 'base64')).metadata();
  return { width, height, format };
}

describe('isImagePath', () => {
  it('recognises image extensions case-insensitively', () => {
    for (const name of ['a.png', 'b.JPG', 'c.jpeg', 'dir/d.gif', 'e.webp', 'f.tiff', 'C:\\x\\g.PNG']) {
      expect(isImagePath(name)).toBe(true);
    }
  });
  it('leaves text, svg and extensionless files to the text reader', () => {
    for (const name of ['a.ts', 'icon.svg', 'Makefile', '.png', 'png']) expect(isImagePath(name)).toBe(false);
  });
});

describe('renderImage', () => {
  it('passes a small PNG through unchanged', async () => {
    const bytes = await roundTrip('small.png', await solidImage(64, 48).png().toBuffer());
    const result = await renderImage(bytes, 'small.png');
    expect(result).toMatchObject({
      ok: true,
      mediaType: 'image/png',
      width: 64,
      height: 48,
      note: 'image 64×48',
    });
    if (!result.ok) return;
    expect(Buffer.from(result.data, 'base64').equals(Buffer.from(bytes))).toBe(true);
  });

  it('resizes a 4000×3000 JPEG to 1568 px on its long edge and keeps it JPEG', async () => {
    const bytes = await roundTrip('big.jpg', await solidImage(4000, 3000).jpeg().toBuffer());
    const result = await renderImage(bytes, 'big.jpg');
    expect(result).toMatchObject({ ok: true, mediaType: 'image/jpeg', width: 1568, height: 1176 });
    if (!result.ok) return;
    expect(result.note).toBe('image 4000×3000 resized to 1568×1176');
    expect(await dimensionsOf(result.data)).toEqual({ width: 1568, height: 1176, format: 'jpeg' });
  });

  it('resizes a tall PNG on its long edge and keeps it PNG', async () => {
    const bytes = await solidImage(1000, 3136).png().toBuffer();
    const result = await renderImage(bytes, 'tall.png');
    expect(result).toMatchObject({ ok: true, mediaType: 'image/png', width: 500, height: 1568 });
    if (!result.ok) return;
    expect(await dimensionsOf(result.data)).toEqual({ width: 500, height: 1568, format: 'png' });
  });

  it('falls back to JPEG when a PNG is still over the byte limit after resizing', async () => {
    // Random noise does not compress, so a 1500×1500 RGB PNG is about 6.5 MB.
    const noise = randomBytes(1500 * 1500 * 3);
    const bytes = await sharp(noise, { raw: { width: 1500, height: 1500, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(bytes.byteLength).toBeGreaterThan(MAX_IMAGE_BYTES);
    const result = await renderImage(bytes, 'noise.png');
    expect(result).toMatchObject({ ok: true, mediaType: 'image/jpeg', width: 1500, height: 1500 });
    if (!result.ok) return;
    expect(result.note).toMatch(/^image 1500×1500, re-encoded as JPEG quality \d+ to fit 3\.75 MB$/);
    expect(Buffer.from(result.data, 'base64').byteLength).toBeLessThanOrEqual(MAX_IMAGE_BYTES);
  });

  it('converts TIFF and SVG to PNG', async () => {
    const tiff = await renderImage(await solidImage(30, 20).tiff().toBuffer(), 'scan.tiff');
    expect(tiff).toMatchObject({ ok: true, mediaType: 'image/png', width: 30, height: 20 });
    if (tiff.ok) expect(tiff.note).toBe('image 30×20, converted from TIFF');

    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="10"><rect width="40" height="10"/></svg>',
    );
    const rendered = await renderImage(svg, 'icon.svg');
    expect(rendered).toMatchObject({ ok: true, mediaType: 'image/png', width: 40, height: 10 });
    if (rendered.ok) expect((await dimensionsOf(rendered.data)).format).toBe('png');
  });

  it('uses the real format, not the extension, for the media type', async () => {
    const result = await renderImage(await solidImage(10, 10).jpeg().toBuffer(), 'misnamed.png');
    expect(result).toMatchObject({ ok: true, mediaType: 'image/jpeg' });
  });

  it('returns an error for corrupt and truncated images', async () => {
    const garbage = await roundTrip('broken.png', new TextEncoder().encode('not really a png'));
    const corrupt = await renderImage(garbage, 'broken.png');
    expect(corrupt.ok).toBe(false);
    if (!corrupt.ok) expect(corrupt.error).toMatch(/broken\.png: not a readable image/);

    const png = await solidImage(200, 200).png().toBuffer();
    const truncated = await renderImage(png.subarray(0, png.length - 40), 'cut.png');
    expect(truncated.ok).toBe(false);
  });

  it('explains that BMP is unsupported', async () => {
    const result = await renderImage(new Uint8Array([0x42, 0x4d, 0, 0]), 'old.bmp');
    expect(result).toEqual({ ok: false, error: expect.stringMatching(/BMP images are not supported/) });
  });
});

describe('parsePageRange', () => {
  it('reads single pages, closed ranges and open ranges', () => {
    expect(parsePageRange('3', 10)).toEqual({ ok: true, first: 3, last: 3 });
    expect(parsePageRange('1-5', 10)).toEqual({ ok: true, first: 1, last: 5 });
    expect(parsePageRange(' 2 - 4 ', 10)).toEqual({ ok: true, first: 2, last: 4 });
    expect(parsePageRange('-4', 10)).toEqual({ ok: true, first: 1, last: 4 });
    expect(parsePageRange('10-', 100)).toEqual({ ok: true, first: 10, last: 29 });
    expect(parsePageRange('8-', 10)).toEqual({ ok: true, first: 8, last: 10 });
  });

  it('clamps to the document and to 20 pages', () => {
    expect(parsePageRange('5-50', 12)).toEqual({ ok: true, first: 5, last: 12 });
    expect(parsePageRange('1-100', 300)).toEqual({ ok: true, first: 1, last: 20 });
  });

  it('rejects malformed, reversed and out-of-range specs', () => {
    for (const spec of ['', '-', 'abc', '1,3', '3 5', '2-x', '1.5']) {
      expect(parsePageRange(spec, 10)).toMatchObject({
        ok: false,
        error: expect.stringMatching(/invalid pages/),
      });
    }
    expect(parsePageRange('0', 10)).toMatchObject({ ok: false, error: expect.stringMatching(/start at 1/) });
    expect(parsePageRange('5-3', 10)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/ends before/),
    });
    expect(parsePageRange('11', 10)).toEqual({
      ok: false,
      error: 'pages "11" are out of range: the document has 10 pages',
    });
    expect(parsePageRange('2', 1)).toMatchObject({ error: expect.stringMatching(/has 1 page$/) });
  });
});

describe('renderPdf', () => {
  const threePages = buildPdf(['Hello page 1', 'Hello page 2', 'Hello page 3']);

  it('reads every page of a short PDF with page headings and no trailing note', async () => {
    const result = await renderPdf(await roundTrip('three.pdf', threePages));
    expect(result).toEqual({
      ok: true,
      text: '--- page 1 ---\nHello page 1\n\n--- page 2 ---\nHello page 2\n\n--- page 3 ---\nHello page 3',
      pageCount: 3,
      shown: [1, 3],
    });
  });

  it('reads one page on request and says what else exists', async () => {
    const result = await renderPdf(threePages, '2');
    expect(result).toMatchObject({ ok: true, pageCount: 3, shown: [2, 2] });
    if (!result.ok) return;
    expect(result.text).toContain('--- page 2 ---\nHello page 2');
    expect(result.text).not.toContain('Hello page 1');
    expect(result.text).not.toContain('Hello page 3');
    expect(result.text).toContain('The PDF has 3 pages; showing page 2.');
    expect(result.text).toContain('pages: "3"');
  });

  it('shows the first 20 pages by default and tells how to ask for more', async () => {
    const long = buildPdf(Array.from({ length: 45 }, (_, index) => `Hello page ${index + 1}`));
    const result = await renderPdf(long);
    expect(result).toMatchObject({ ok: true, pageCount: 45, shown: [1, 20] });
    if (!result.ok) return;
    expect(result.text).toContain('--- page 20 ---\nHello page 20');
    expect(result.text).not.toContain('--- page 21 ---');
    expect(result.text).toMatch(/The PDF has 45 pages; showing pages 1-20\. .*pages: "21-40"/);
  });

  it('leaves the caller’s bytes usable for another read', async () => {
    const bytes = buildPdf(['Only page']);
    await renderPdf(bytes);
    const again = await renderPdf(bytes);
    expect(again).toMatchObject({ ok: true, text: '--- page 1 ---\nOnly page' });
  });

  it('gives an error naming the page count for pages beyond the document', async () => {
    const result = await renderPdf(threePages, '5-7');
    expect(result).toEqual({ ok: false, error: 'pages "5-7" are out of range: the document has 3 pages' });
    expect(await renderPdf(threePages, 'two')).toMatchObject({ ok: false });
  });

  it('gives an error for a corrupt PDF', async () => {
    const garbage = await roundTrip(
      'broken.pdf',
      new TextEncoder().encode('%PDF-1.4\nthis is not a pdf at all'),
    );
    const result = await renderPdf(garbage);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/^not a readable PDF: /);
  });
});

const PNG_BASE64 = Buffer.alloc(12 * 1024, 7).toString('base64');

const notebook = {
  nbformat: 4,
  nbformat_minor: 5,
  metadata: {},
  cells: [
    { cell_type: 'markdown', id: 'intro', metadata: {}, source: ['# Title\n', 'Some notes.'] },
    {
      cell_type: 'code',
      id: 'abc',
      execution_count: 3,
      metadata: {},
      source: 'print("hi")\n1 + 1',
      outputs: [
        { output_type: 'stream', name: 'stdout', text: ['hi\n'] },
        {
          output_type: 'execute_result',
          execution_count: 3,
          metadata: {},
          data: { 'text/plain': ['2'], 'text/html': ['<b>2</b>'] },
        },
      ],
    },
    {
      cell_type: 'code',
      id: 'err',
      execution_count: 4,
      metadata: {},
      source: '1 / 0',
      outputs: [
        {
          output_type: 'error',
          ename: 'ZeroDivisionError',
          evalue: 'division by zero',
          traceback: [
            '\u001b[0;31m---------------------------------------------------------------------------\u001b[0m',
            '\u001b[0;31mZeroDivisionError\u001b[0m: division by zero',
          ],
        },
      ],
    },
    {
      cell_type: 'code',
      id: 'plot',
      execution_count: null,
      metadata: {},
      source: 'plot()',
      outputs: [
        { output_type: 'display_data', metadata: {}, data: { 'image/png': PNG_BASE64, 'text/plain': [] } },
      ],
    },
    {
      cell_type: 'code',
      id: 'log',
      execution_count: 5,
      metadata: {},
      source: 'noisy()',
      outputs: [
        { output_type: 'stream', name: 'stderr', text: `start\n${'x'.repeat(5000)}\nlast line\n` },
        { output_type: 'stream', name: 'stdout', text: 'progress 10%\rprogress 100%\n' },
      ],
    },
  ],
};

describe('renderNotebook', () => {
  const result = renderNotebook(JSON.stringify(notebook));

  it('renders cells with headers, sources and outputs', () => {
    expect(result).toMatchObject({ ok: true, cellCount: 5 });
    if (!result.ok) return;
    expect(result.text).toContain('[cell 1] markdown (id: intro)\n# Title\nSome notes.');
    expect(result.text).toContain(
      '[cell 2] code (id: abc, execution_count: 3)\nprint("hi")\n1 + 1\n[stdout]\nhi\n[result]\n2',
    );
    // text/html duplicates text/plain, so it is not mentioned.
    expect(result.text).not.toContain('text/html');
  });

  it('strips ANSI escapes from errors', () => {
    if (!result.ok) throw new Error(result.error);
    expect(result.text).toContain(
      '[cell 3] code (id: err, execution_count: 4)\n1 / 0\n[error] ZeroDivisionError: division by zero\n---',
    );
    expect(result.text).toContain('\nZeroDivisionError: division by zero');
    expect(result.text).not.toContain('\u001b');
  });

  it('notes image outputs in one line', () => {
    if (!result.ok) throw new Error(result.error);
    expect(result.text).toContain('[cell 4] code (id: plot)\nplot()\n[image/png output, 12 KB]');
  });

  it('trims long outputs, keeping head and tail, and applies carriage returns', () => {
    if (!result.ok) throw new Error(result.error);
    expect(result.text).toMatch(/\[stderr\]\nstart\nx+\n\[… 3,\d{3} characters cut …\]\nx+\nlast line/);
    expect(result.text).toContain('[stdout]\nprogress 100%');
    expect(result.text).not.toContain('progress 10%');
    expect(result.text.length).toBeLessThan(4000);
  });

  it('returns an error for invalid JSON and for JSON that is not a notebook', async () => {
    const path = join(dir, 'broken.ipynb');
    await writeFile(path, '{"cells": [');
    const broken = renderNotebook(await readFile(path, 'utf8'));
    expect(broken).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^not a valid notebook: invalid JSON/),
    });
    expect(renderNotebook('[1, 2]')).toMatchObject({ ok: false });
    expect(renderNotebook('{"metadata": {}}')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/cells/),
    });
  });

  it('tolerates nbformat 3 worksheets', () => {
    const v3 = {
      nbformat: 3,
      worksheets: [
        {
          cells: [
            { cell_type: 'heading', level: 2, source: 'Results' },
            {
              cell_type: 'code',
              input: ['x = 41\n', 'x + 1'],
              prompt_number: 7,
              outputs: [{ output_type: 'pyout', text: ['42'] }],
            },
          ],
        },
      ],
    };
    const rendered = renderNotebook(JSON.stringify(v3));
    expect(rendered).toEqual({
      ok: true,
      cellCount: 2,
      text: '[cell 1] markdown\n## Results\n\n[cell 2] code (execution_count: 7)\nx = 41\nx + 1\n[result]\n42',
    });
  });
});

describe('notebookImages', () => {
  it('returns the image outputs as base64 with their media type', () => {
    expect(notebookImages(JSON.stringify(notebook))).toEqual([{ mediaType: 'image/png', data: PNG_BASE64 }]);
  });

  it('returns at most the requested number of images, and none for invalid JSON', () => {
    const many = {
      cells: Array.from({ length: 5 }, () => ({
        cell_type: 'code',
        source: '',
        outputs: [{ output_type: 'display_data', data: { 'image/jpeg': 'AAAA\n' } }],
      })),
    };
    expect(notebookImages(JSON.stringify(many))).toHaveLength(3);
    expect(notebookImages(JSON.stringify(many), 1)).toEqual([{ mediaType: 'image/jpeg', data: 'AAAA' }]);
    expect(notebookImages('not json')).toEqual([]);
  });
});
