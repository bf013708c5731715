// web_fetch end to end against a page served on 127.0.0.1: fetch, main content and Markdown of a
// 1 MB article, and the same call served from the cache.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_WEB_SETTINGS } from '../src/config/web_settings.js';
import type { WebAccess } from '../src/tool/context/web.js';
import type { ToolContext } from '../src/tool/types.js';
import { webFetch } from '../src/tools/web/web_fetch.js';
import { HttpCache } from '../src/web/http_cache.js';
import { testContext } from '../test/support/runtime_fixtures.js';
import { median, timeRuns } from './stats.js';

const RUNS = 15;

/** About 1 MB of article: navigation, a long body of paragraphs and tables, a footer. */
function megabytePage(): string {
  const nav = `<nav><ul>${Array.from({ length: 200 }, (_, i) => `<li><a href="/s/${i}">Section ${i}</a></li>`).join('')}</ul></nav>`;
  const paragraph = (i: number) =>
    `<p>Paragraph ${i}: the council met again to weigh the cost of the bridge, the detour for lorries and the ` +
    `footbridge that would carry children to school while the arches are rebuilt stone by stone.</p>`;
  const sections: string[] = [];
  for (let i = 0; sections.join('').length < 1_000_000; i++) {
    sections.push(`<h2>Part ${i}</h2>${paragraph(i * 3)}${paragraph(i * 3 + 1)}${paragraph(i * 3 + 2)}`);
    if (i % 20 === 0)
      sections.push(`<table><tr><th>a</th><th>b</th></tr><tr><td>${i}</td><td>${i * 2}</td></tr></table>`);
  }
  return `<!doctype html><html><head><title>Bridge</title></head><body>${nav}<article><h1>The bridge</h1>${sections.join('')}</article><footer>Footer</footer></body></html>`;
}

function access(): WebAccess {
  return {
    settings: { ...DEFAULT_WEB_SETTINGS, allow: ['127.0.0.1'] },
    cache: new HttpCache(undefined),
    env: {},
  };
}

export async function benchWeb(): Promise<Array<Record<string, string | number>>> {
  const page = megabytePage();
  const server = createServer((_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'max-age=600' })
      .end(page),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bridge`;
  const base = testContext();
  const call = async (web: WebAccess) => {
    const ctx: ToolContext = { ...base, web, signal: new AbortController().signal };
    const result = await webFetch.call({ url }, ctx);
    if (result.isError) throw new Error(result.text);
  };
  try {
    const uncached = await timeRuns(RUNS, () => call(access()));
    // The machine may be shared: the CPU time of a fetch says what lathe itself spends.
    const cpu: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const before = process.cpuUsage();
      await call(access());
      const used = process.cpuUsage(before);
      cpu.push((used.user + used.system) / 1000);
    }
    const warm = access();
    await call(warm);
    const cached = await timeRuns(RUNS * 4, () => call(warm));
    return [
      {
        case: `web_fetch, ${(page.length / 1e6).toFixed(2)} MB page (fetch, main content, Markdown)`,
        'median ms': median(uncached),
        runs: RUNS,
      },
      { case: '… of it, CPU time of this process', 'median ms': median(cpu), runs: RUNS },
      { case: 'web_fetch, same page from the cache', 'median ms': median(cached), runs: RUNS * 4 },
    ];
  } finally {
    server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printTable } = await import('./stats.js');
  printTable('web_fetch', await benchWeb());
}
