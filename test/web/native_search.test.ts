import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { modelAccess } from '../../src/agent/model_access.js';
import { createModel, providerOptionsFor } from '../../src/provider/create_model.js';
import { parseModelSpec } from '../../src/provider/model_spec.js';
import type { ToolContext, ToolResult } from '../../src/tool/types.js';
import { webSearch } from '../../src/tools/web/web_search.js';
import { FakeModelServer, type Protocol, type RecordedRequest } from '../support/fake_model_server.js';
import { testContext } from '../support/runtime_fixtures.js';
import { webAccess } from './local_server.js';

/**
 * web_search through the model provider's own search, against the fake server speaking each
 * provider's streaming format for it: the results' titles, links, snippets and dates reach the tool.
 */

let server: FakeModelServer;
beforeAll(async () => {
  server = await FakeModelServer.start();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

async function context(modelName: string, protocol: Protocol): Promise<ToolContext> {
  const spec = parseModelSpec(modelName);
  const model = await createModel(spec, { baseUrl: server.baseUrl(protocol), apiKey: 'test-key' });
  const models = modelAccess({
    model,
    modelName,
    providerOptions: providerOptionsFor(spec),
    models: async () => {
      throw new Error('no other model in this test');
    },
  });
  return {
    ...testContext(),
    web: webAccess({ search: [{ provider: 'native' }] }),
    models,
    signal: new AbortController().signal,
  };
}

async function search(
  modelName: string,
  protocol: Protocol,
  input: Record<string, unknown> = {},
): Promise<{ result: ToolResult; request: RecordedRequest }> {
  const result = (await webSearch.call(
    { query: 'wood lathe', ...input },
    await context(modelName, protocol),
  )) as ToolResult;
  const request = server.requests.filter((r) => r.kind === 'model').at(-1)!;
  return { result, request };
}

const DOCS = { title: 'Lathe docs', url: 'https://docs.example.org/lathe' };
const SAFETY = { title: 'Lathe safety', url: 'https://safety.example.com/lathe' };

describe('web_search through Anthropic web search', () => {
  const model = 'anthropic/claude-sonnet-4-5';

  it('returns the results with the cited text as snippet and the page age as date', async () => {
    server.enqueue({
      text: 'I found these pages.',
      search: {
        query: 'wood lathe',
        results: [
          { ...DOCS, pageAge: '2 days ago', citedText: 'Keep the tool rest close to the work.' },
          { ...SAFETY, pageAge: 'March 4, 2025', citedText: 'Wear goggles and tie back your hair.' },
          { title: 'Lathe forum', url: 'https://forum.example.net/t/1' },
        ],
      },
    });
    const { result, request } = await search(model, 'anthropic');
    expect(result.isError).toBeFalsy();
    expect(result.data).toMatchObject({
      backend: 'native',
      results: [
        { ...DOCS, snippet: 'Keep the tool rest close to the work.', date: '2 days ago' },
        { ...SAFETY, snippet: 'Wear goggles and tie back your hair.', date: 'March 4, 2025' },
        { title: 'Lathe forum', url: 'https://forum.example.net/t/1', snippet: '' },
      ],
    });
    expect(result.text).toContain(
      '1. Lathe docs\n   https://docs.example.org/lathe\n   2 days ago — Keep the tool rest close to the work.',
    );
    expect(request.stream).toBe(true);
    expect(request.body.tools).toEqual([{ type: 'web_search_20250305', name: 'web_search', max_uses: 2 }]);
  });

  it('passes the domains to the search as allowed domains', async () => {
    server.enqueue({ search: { query: 'wood lathe', results: [{ ...DOCS, citedText: 'Docs.' }] } });
    const { result, request } = await search(model, 'anthropic', { domains: ['example.org'] });
    expect(result.data).toMatchObject({ results: [DOCS] });
    expect(request.body.tools[0].allowed_domains).toEqual(['example.org']);
  });

  it("says the provider's search failed, with its code, when it found nothing", async () => {
    server.enqueue({
      text: 'The search did not work.',
      search: { query: 'wood lathe', results: [], failed: 'too_many_requests' },
    });
    const { result } = await search(model, 'anthropic');
    expect(result.isError).toBe(true);
    expect(result.text).toBe(
      "No search backend answered: native: the provider's search failed: too_many_requests",
    );
  });
});

describe('web_search through OpenAI web search (Responses API)', () => {
  const model = 'openai/gpt-5';

  it('returns the cited pages with the citing line as snippet, then the other pages it looked at', async () => {
    server.enqueue({
      text: 'Here is what I found:',
      search: {
        query: 'wood lathe',
        results: [
          { ...DOCS, citedText: '- Lathe docs: keep the tool rest close to the work.' },
          { ...SAFETY, citedText: '- Lathe safety: wear goggles.' },
          { title: 'Lathe forum', url: 'https://forum.example.net/t/1' },
        ],
      },
    });
    const { result, request } = await search(model, 'openai-responses');
    expect(result.isError).toBeFalsy();
    // The links lose the tracking tag OpenAI adds; an uncited page has no title but its link.
    expect(result.data).toMatchObject({
      results: [
        { ...DOCS, snippet: '- Lathe docs: keep the tool rest close to the work.' },
        { ...SAFETY, snippet: '- Lathe safety: wear goggles.' },
        { title: 'https://forum.example.net/t/1', url: 'https://forum.example.net/t/1', snippet: '' },
      ],
    });
    expect(request.stream).toBe(true);
    expect(request.body.tools).toEqual([{ type: 'web_search' }]);
    expect(request.body.include).toContain('web_search_call.action.sources');
    // lathe uses the Responses API statelessly: the search is not stored either.
    expect(request.body.store).toBe(false);
  });

  it('passes the domains as the search filter', async () => {
    server.enqueue({ search: { query: 'wood lathe', results: [{ ...DOCS, citedText: 'Docs.' }] } });
    const { result, request } = await search(model, 'openai-responses', { domains: ['example.org'] });
    expect(result.data).toMatchObject({ results: [DOCS] });
    expect(request.body.tools[0].filters).toEqual({ allowed_domains: ['example.org'] });
  });

  it("says the provider's search failed when the search call did", async () => {
    server.enqueue({ search: { query: 'wood lathe', results: [], failed: 'failed' } });
    const { result } = await search(model, 'openai-responses');
    expect(result.isError).toBe(true);
    expect(result.text).toBe("No search backend answered: native: the provider's search failed: failed");
  });
});

describe('web_search through Gemini grounding with Google Search', () => {
  const model = 'google/gemini-2.5-flash';
  // Gemini links its sources through Google's redirect and titles them with the site's name.
  const redirect = (id: string) => `https://vertexaisearch.cloud.google.com/grounding-api-redirect/${id}`;

  it('returns the grounding pages with the sentence each supports as snippet', async () => {
    server.enqueue({
      text: 'Woodturning basics:',
      search: {
        query: 'wood lathe',
        results: [
          { title: 'docs.example.org', url: redirect('AbC1'), citedText: 'Keep the tool rest close.' },
          { title: 'safety.example.com', url: redirect('DeF2'), citedText: 'Wear goggles — always.' },
        ],
      },
    });
    const { result, request } = await search(model, 'gemini');
    expect(result.isError).toBeFalsy();
    expect(result.data).toMatchObject({
      results: [
        { title: 'docs.example.org', url: redirect('AbC1'), snippet: 'Keep the tool rest close.' },
        { title: 'safety.example.com', url: redirect('DeF2'), snippet: 'Wear goggles — always.' },
      ],
    });
    expect(request.stream).toBe(true);
    expect(request.toolNames).toEqual(['google_search']);
  });

  it('asks for the domains as site: terms and keeps the results on them by their site', async () => {
    server.enqueue({
      search: {
        query: 'wood lathe',
        results: [
          { title: 'docs.example.org', url: redirect('AbC1'), citedText: 'Docs.' },
          { title: 'safety.example.com', url: redirect('DeF2'), citedText: 'Safety.' },
        ],
      },
    });
    const { result, request } = await search(model, 'gemini', { domains: ['example.org'] });
    expect(request.lastUserText).toContain('wood lathe (site:example.org)');
    expect(result.data).toMatchObject({ results: [{ url: redirect('AbC1'), site: 'docs.example.org' }] });
    expect((result.data as { results: unknown[] }).results).toHaveLength(1);
  });
});
