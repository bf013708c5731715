import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, type LanguageModel, streamText, type ToolSet } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeModelServer, type ScriptedSearch } from '../support/fake_model_server.js';

/**
 * A provider's own web search, as the fake server writes it, read by the real AI SDK client:
 * if the SDK reports the sources and the answer, the wire format is the provider's.
 */

const SEARCH: ScriptedSearch = {
  query: 'wood lathe',
  results: [
    {
      title: 'Lathe docs',
      url: 'https://docs.example.org/lathe',
      pageAge: '2 days ago',
      citedText: 'Turn wood slowly.',
    },
    { title: 'Lathe safety', url: 'https://safety.example.com/lathe', citedText: 'Wear goggles.' },
    { title: 'Lathe forum', url: 'https://forum.example.net/t/1' },
  ],
};

interface SearchClient {
  name: string;
  model: (server: FakeModelServer) => LanguageModel;
  /** The provider's search tool (its declared types are narrower than ToolSet's; the SDK takes it). */
  tools: (server: FakeModelServer) => Record<string, unknown>;
  /** The sources the SDK reports: every result (Anthropic, Gemini) or only the cited ones (OpenAI). */
  sources: string[];
}

const ALL = SEARCH.results.map((r) => r.url);
const CITED = SEARCH.results.filter((r) => r.citedText).map((r) => r.url);
const anthropic = (s: FakeModelServer) => createAnthropic({ baseURL: s.baseUrl('anthropic'), apiKey: 'k' });
const openai = (s: FakeModelServer) => createOpenAI({ baseURL: s.baseUrl('openai-responses'), apiKey: 'k' });
const google = (s: FakeModelServer) =>
  createGoogleGenerativeAI({ baseURL: s.baseUrl('gemini'), apiKey: 'k' });

const CLIENTS: SearchClient[] = [
  {
    name: 'anthropic',
    model: (s) => anthropic(s)('claude-sonnet-4-5'),
    tools: (s) => ({ web_search: anthropic(s).tools.webSearch_20250305({ maxUses: 1 }) }),
    // Each result, then each citation again.
    sources: [...ALL, ...CITED],
  },
  {
    name: 'openai responses',
    model: (s) => openai(s).responses('gpt-5'),
    tools: (s) => ({ web_search: openai(s).tools.webSearch({}) }),
    sources: CITED.map((url) => `${url}?utm_source=openai`),
  },
  {
    name: 'gemini',
    model: (s) => google(s)('gemini-2.5-flash'),
    tools: (s) => ({ google_search: google(s).tools.googleSearch({}) }),
    sources: ALL,
  },
];

let server: FakeModelServer;
beforeEach(async () => {
  server = await FakeModelServer.start();
});
afterEach(async () => {
  await server.close();
});

describe.each(CLIENTS)('$name search against the fake server', (client) => {
  it('streams the sources and the cited answer', async () => {
    server.enqueue({ text: 'Found these.', search: SEARCH });
    const result = streamText({
      model: client.model(server),
      prompt: 'search',
      tools: client.tools(server) as ToolSet,
    });
    const sources: string[] = [];
    let text = '';
    for await (const part of result.fullStream) {
      if (part.type === 'source' && part.sourceType === 'url') sources.push(part.url);
      else if (part.type === 'text-delta') text += part.text;
      else if (part.type === 'error') throw part.error;
    }
    expect(sources).toEqual(client.sources);
    expect(text).toMatch(/^Found these\.\nTurn wood slowly\..*\nWear goggles\./);
  });

  it('answers the same search without streaming', async () => {
    server.enqueue({ text: 'Found these.', search: SEARCH });
    const result = await generateText({
      model: client.model(server),
      prompt: 'search',
      tools: client.tools(server) as ToolSet,
    });
    expect(result.sources.map((s) => (s.sourceType === 'url' ? s.url : ''))).toEqual(client.sources);
    expect(result.text).toContain('Wear goggles.');
  });

  it('refuses a scripted search when the request offers no search tool', async () => {
    server.enqueue({ text: 'Found these.', search: SEARCH });
    await expect(
      generateText({ model: client.model(server), prompt: 'search', maxRetries: 0 }),
    ).rejects.toThrow(/offers no (web_search|google_search) tool/);
  });
});
