import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchBackendSettings } from '../../src/config/web_settings.js';
import type { ToolContext, ToolResult } from '../../src/tool/types.js';
import { HOW_TO_CONFIGURE, webSearch } from '../../src/tools/web/web_search.js';
import { searchBackend } from '../../src/web/search/backends.js';
import { testContext } from '../support/runtime_fixtures.js';
import { type LocalServer, localServer, webAccess } from './local_server.js';

/** The two pages every fake backend finds, in its own service's answer format. */
const PAGES = [
  {
    title: 'Lathe docs',
    url: 'https://docs.example.org/lathe',
    snippet: 'How to turn wood.',
    date: '2025-01-02',
  },
  {
    title: 'Lathe safety',
    url: 'https://safety.example.com/lathe',
    snippet: 'Wear goggles.',
    date: '2025-03-04',
  },
];

const ddgHtml = `<html><body>
<div class="result result--ad"><a class="result__a" href="https://ads.example/">Ad</a></div>
${PAGES.map(
  (
    p,
  ) => `<div class="result"><h2><a class="result__a" href="//duckduckgo.com/l/?uddg=${encodeURIComponent(p.url)}&rut=x">${p.title}</a></h2>
<a class="result__snippet">${p.snippet}</a></div>`,
).join('\n')}</body></html>`;

let server: LocalServer;
const bodies: Record<string, string> = {};

beforeAll(async () => {
  server = await localServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    bodies[req.url ?? ''] = body;
    const path = (req.url ?? '').split('?')[0];
    const json = (value: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (path === '/brave') {
      if (req.headers['x-subscription-token'] !== 'brave-key')
        return void res.writeHead(401).end('bad token');
      return json({
        web: {
          results: PAGES.map((p) => ({
            title: p.title,
            url: p.url,
            description: p.snippet,
            page_age: p.date,
          })),
        },
      });
    }
    if (path === '/tavily')
      return json({
        results: PAGES.map((p) => ({
          title: p.title,
          url: p.url,
          content: p.snippet,
          published_date: p.date,
        })),
      });
    if (path === '/exa')
      return json({
        results: PAGES.map((p) => ({
          title: p.title,
          url: p.url,
          highlights: [p.snippet],
          publishedDate: p.date,
        })),
      });
    if (path === '/searxng/search')
      return json({
        results: PAGES.map((p) => ({
          title: p.title,
          url: p.url,
          content: p.snippet,
          publishedDate: p.date,
        })),
      });
    if (path === '/ddg') return void res.writeHead(200, { 'content-type': 'text/html' }).end(ddgHtml);
    if (path === '/down') return void res.writeHead(503).end('maintenance until noon');
    res.writeHead(404).end();
  });
});
afterAll(() => server.close());

function context(search: SearchBackendSettings[]): ToolContext {
  return { ...testContext(), web: webAccess({ search }), signal: new AbortController().signal };
}

async function search(
  backends: SearchBackendSettings[],
  input: Record<string, unknown> = {},
): Promise<ToolResult> {
  return (await webSearch.call({ query: 'wood lathe', ...input }, context(backends))) as ToolResult;
}

describe('web_search', () => {
  it('gives the same normalised results from every backend', async () => {
    const configured: SearchBackendSettings[] = [
      { provider: 'brave', apiKey: 'brave-key', url: `${server.url}/brave` },
      { provider: 'tavily', apiKey: 't', url: `${server.url}/tavily` },
      { provider: 'exa', apiKey: 'e', url: `${server.url}/exa` },
      { provider: 'searxng', url: `${server.url}/searxng` },
      { provider: 'duckduckgo', url: `${server.url}/ddg` },
    ];
    for (const settings of configured) {
      const results = await searchBackend(settings, {}).search(
        { query: 'wood lathe', maxResults: 5 },
        new AbortController().signal,
      );
      const expected = settings.provider === 'duckduckgo' ? PAGES.map(({ date: _, ...rest }) => rest) : PAGES;
      expect(results, settings.provider).toEqual(expected);
    }
    expect(bodies['/tavily']).toContain('"max_results":5');
    expect(Object.keys(bodies).find((k) => k.startsWith('/searxng'))).toMatch(/q=wood\+lathe&format=json/);
  });

  it('falls through a failing backend to the next, and says so', async () => {
    const result = await search([
      { provider: 'brave', apiKey: 'brave-key', url: `${server.url}/down` },
      { provider: 'tavily', apiKey: 't', url: `${server.url}/tavily` },
    ]);
    expect(result.isError).toBeFalsy();
    expect(result.text).toContain('2 results for "wood lathe" from tavily');
    expect(result.text).toContain('brave: brave answered HTTP 503: maintenance until noon; used tavily');
    expect(result.text).toContain(
      '1. Lathe docs\n   https://docs.example.org/lathe\n   2025-01-02 — How to turn wood.',
    );
  });

  it('keeps results to the domains asked for and sends them as site: terms', async () => {
    const result = await search([{ provider: 'duckduckgo', url: `${server.url}/ddg` }], {
      domains: ['example.org'],
    });
    expect(result.data).toMatchObject({ results: [{ url: 'https://docs.example.org/lathe' }] });
    expect(new URLSearchParams(bodies['/ddg']).get('q')).toBe('wood lathe (site:example.org)');
  });

  it('names every reason when no backend answers: a missing key, a native search the model lacks', async () => {
    const result = await search([{ provider: 'exa', url: `${server.url}/exa` }, { provider: 'native' }]);
    expect(result.isError).toBe(true);
    expect(result.text).toBe(
      'No search backend answered: exa: exa needs an API key: set "web.search.apiKey" or EXA_API_KEY; native: this model has no search of its own',
    );
  });

  it('answers how to configure a backend when none is', async () => {
    const result = await search([]);
    expect(result.isError).toBeFalsy();
    expect(result.text).toBe(HOW_TO_CONFIGURE);
  });
});
