import { readFileSync } from 'node:fs';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import sharp from 'sharp';
import TurndownService from 'turndown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolContext, ToolResult } from '../../src/tool/types.js';
import { webFetch } from '../../src/tools/web/web_fetch.js';
import { htmlToMarkdown } from '../../src/web/html_markdown.js';
import { buildPdf } from '../support/pdf.js';
import { testContext } from '../support/runtime_fixtures.js';
import { type LocalServer, localServer, webAccess } from './local_server.js';

const article = readFileSync(new URL('../fixtures/web/article.html', import.meta.url), 'utf8');
const tokens = async (text: string) => (await import('gpt-tokenizer/encoding/o200k_base')).countTokens(text);

// Shift_JIS bytes of 日本語のページ, and a Latin-1 é / ü / ß.
const SHIFT_JIS = Buffer.from([
  0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea, 0x82, 0xcc, 0x83, 0x79, 0x81, 0x5b, 0x83, 0x57,
]);
const LATIN_1 = Buffer.from('Caf\xe9 \xfcber Stra\xdfe', 'latin1');

let server: LocalServer;
let png: Buffer;
const pages: Record<
  string,
  { type?: string; body: string | Buffer; status?: number; headers?: Record<string, string> }
> = {};

// The converters and the tokenizer load once, here, so no test's time includes their loading.
beforeAll(async () => {
  await Promise.all([
    import('gpt-tokenizer/encoding/o200k_base'),
    htmlToMarkdown('<p>warm</p>', 'http://x/'),
  ]);
}, 120_000);

beforeAll(async () => {
  png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  Object.assign(pages, {
    '/article': { type: 'text/html; charset=utf-8', body: article },
    '/latin1': { type: 'text/plain; charset=iso-8859-1', body: LATIN_1 },
    '/sjis': {
      type: 'text/html',
      body: Buffer.concat([
        Buffer.from('<html><head><meta charset="Shift_JIS"></head><body><p>'),
        SHIFT_JIS,
        Buffer.from('</p></body></html>'),
      ]),
    },
    '/gzip': {
      type: 'text/plain',
      headers: { 'content-encoding': 'gzip' },
      body: gzipSync('Packed with gzip.'),
    },
    '/deflate': {
      type: 'text/plain',
      headers: { 'content-encoding': 'deflate' },
      body: deflateSync('Packed with deflate.'),
    },
    '/br': {
      type: 'text/plain',
      headers: { 'content-encoding': 'br' },
      body: brotliCompressSync('Packed with brotli.'),
    },
    '/badcharset': { type: 'text/plain; charset=x-no-such-charset', body: 'text' },
    '/long': { type: 'text/plain', body: `${'word '.repeat(60_000)}end` },
    '/data.json': { type: 'application/json', body: '{"name":"lathe","list":[1,2]}' },
    '/doc.pdf': { type: 'application/pdf', body: Buffer.from(buildPdf(['Hello from the PDF'])) },
    '/pic.png': { type: 'image/png', body: png },
    '/blob': { type: 'application/zip', body: Buffer.from([0x50, 0x4b, 3, 4, 0, 0, 0, 0]) },
    '/missing': {
      status: 404,
      type: 'text/html',
      body: '<html><body><h1>No such page</h1><p>Try the index.</p></body></html>',
    },
    '/challenge': {
      status: 403,
      type: 'text/html',
      headers: { 'cf-mitigated': 'challenge' },
      body: '<html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>',
    },
  });
  server = await localServer((req, res) => {
    const page = pages[req.url ?? ''];
    if (!page) return void res.writeHead(500).end();
    res
      .writeHead(page.status ?? 200, { 'content-type': page.type ?? 'text/plain', ...page.headers })
      .end(page.body);
  });
});
afterAll(() => server.close());

function context(): ToolContext {
  return { ...testContext(), web: webAccess({ allow: ['127.0.0.1'] }), signal: new AbortController().signal };
}

async function fetchPage(path: string, extra: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await webFetch.call({ url: `${server.url}${path}`, ...extra }, context())) as ToolResult;
}

describe('web_fetch content', () => {
  it('keeps an article’s headline and paragraphs, drops navigation, at under 30% of the tokens', async () => {
    const result = await fetchPage('/article');
    expect(result.isError).toBeFalsy();
    expect(result.text).toContain('Council votes to rebuild the old stone bridge');
    expect(result.text).toContain('The work is to begin in the spring and to last fourteen months.');
    expect(result.text).toContain('promised monthly meetings with traders');
    expect(result.text).not.toContain('Section number 12');
    expect(result.text).not.toContain('Legal page');
    expect(result.text).not.toContain('window.analytics');
    const whole = new TurndownService().turndown(article);
    expect(await tokens(result.text)).toBeLessThanOrEqual(0.3 * (await tokens(whole)));
  });

  it('decodes Latin-1 from the header and Shift_JIS from the page’s meta tag', async () => {
    expect((await fetchPage('/latin1')).text).toContain('Café über Straße');
    expect((await fetchPage('/sjis')).text).toContain('日本語のページ');
    expect((await fetchPage('/badcharset')).text).toMatch(
      /declares the charset "x-no-such-charset", which lathe cannot decode/,
    );
  });

  it('unpacks a gzip, deflate or brotli body', async () => {
    expect((await fetchPage('/gzip')).text).toContain('Packed with gzip.');
    expect((await fetchPage('/deflate')).text).toContain('Packed with deflate.');
    expect((await fetchPage('/br')).text).toContain('Packed with brotli.');
  });

  it('pages a 300,000-character page and says where the next part starts', async () => {
    const first = await fetchPage('/long');
    expect(first.text).toMatch(/characters 0–20000 of 300003/);
    const next = /offset=(\d+)/.exec(first.text)?.[1];
    expect(next).toBe('20000');
    const second = await fetchPage('/long', { offset: 290_000, max_chars: 20_000 });
    expect(second.text).toMatch(/characters 290000–300003 of 300003/);
    expect(second.text.trimEnd().endsWith('end')).toBe(true);
    expect(second.text).not.toContain('[More:');
  });

  it('pretty-prints JSON, reads PDF text and returns images as images', async () => {
    expect((await fetchPage('/data.json')).text).toContain('{\n  "name": "lathe",\n  "list": [\n    1,');
    expect((await fetchPage('/doc.pdf')).text).toContain('Hello from the PDF');
    const image = await fetchPage('/pic.png');
    expect(image.images?.[0]).toEqual({ mediaType: 'image/png', data: png.toString('base64') });
    expect(image.text).toContain('image 40×30');
  });

  it('refuses other binary with its type and size', async () => {
    const result = await fetchPage('/blob');
    expect(result).toMatchObject({ isError: true });
    expect(result.text).toMatch(/application\/zip content \(8 bytes\) is binary and was not read/);
  });

  it('reports an error status with a body excerpt, and a challenge page as bot protection', async () => {
    const missing = await fetchPage('/missing');
    expect(missing).toMatchObject({ isError: true });
    expect(missing.text).toMatch(/\/missing: HTTP 404 Not Found: No such page Try the index\.$/);
    const challenge = await fetchPage('/challenge');
    expect(challenge.text).toMatch(/blocked by bot protection \(Cloudflare challenge, HTTP 403\)/);
  });
});
