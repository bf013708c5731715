import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelAccess } from '../../src/agent/model_access.js';
import { modelSourceBeside } from '../../src/agent/subagents/child_model.js';
import { mergeSettings } from '../../src/config/settings.js';
import { validateSettings } from '../../src/config/validate.js';
import { RulePermissionEngine } from '../../src/permission/engine.js';
import { createModel } from '../../src/provider/create_model.js';
import { parseModelSpec } from '../../src/provider/model_spec.js';
import { pathRuleTools } from '../../src/tool/kinds.js';
import type { ToolContext, ToolResult } from '../../src/tool/types.js';
import { builtinTools } from '../../src/tools/index.js';
import { webFetch } from '../../src/tools/web/web_fetch.js';
import { FakeModelServer } from '../support/fake_model_server.js';
import { testContext } from '../support/runtime_fixtures.js';
import { type LocalServer, localServer, tableResolver, webAccess } from './local_server.js';

let site: LocalServer;
let other: LocalServer;

beforeAll(async () => {
  other = await localServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/plain' }).end('other host'),
  );
  site = await localServer((req, res) => {
    if (req.url === '/away')
      return void res.writeHead(302, { location: `http://elsewhere.test:${other.port}/` }).end();
    res
      .writeHead(200, { 'content-type': 'text/plain' })
      .end(`The release is version 4.2, out on 3 March. ${'Filler. '.repeat(50)}`);
  });
});
afterAll(async () => {
  await site.close();
  await other.close();
});

function engine(rules: { allow?: string[]; deny?: string[] }) {
  const settings = mergeSettings([{ source: 'test', settings: { permissions: rules } }]);
  const workspace = testContext().workspace;
  return new RulePermissionEngine({
    settings,
    workspace,
    documentsRoot: workspace,
    cwd: workspace,
    pathRuleTools: pathRuleTools(builtinTools()),
  });
}

describe('web_fetch as a tool', () => {
  it('answers a prompt with the provider’s small model, the page still there by offset', async () => {
    const fake = await FakeModelServer.start({ turns: [{ text: 'Version 4.2, released on 3 March.' }] });
    try {
      const endpoint = { baseUrl: `${fake.url}/v1`, apiKey: 'test-key' };
      const modelName = 'anthropic/claude-sonnet-4-5';
      const models = modelAccess({
        model: await createModel(parseModelSpec(modelName), endpoint),
        modelName,
        models: modelSourceBeside({ provider: 'anthropic', endpoint }),
      });
      const waits: string[] = [];
      const ctx: ToolContext = {
        ...testContext(),
        web: webAccess({ allow: ['127.0.0.1'] }),
        models,
        signal: new AbortController().signal,
        progress: (message) => waits.push(message),
      };
      const result = (await webFetch.call(
        { url: `${site.url}/release`, prompt: 'Which version, and when?' },
        ctx,
      )) as ToolResult;
      // What the call waited for, as a running call shows it.
      expect(waits).toEqual([`fetching 127.0.0.1:${site.port}…`, 'asking a model about the page…']);
      expect(result.text).toContain(
        'Answer by anthropic/claude-haiku-4-5:\n\nVersion 4.2, released on 3 March.',
      );
      expect(result.text).toMatch(/The page's own text \(\d+ characters\) stays available/);
      expect(fake.requests[0].model).toBe('claude-haiku-4-5');
      expect(fake.requests[0].lastUserText).toContain('The release is version 4.2, out on 3 March.');
      expect(fake.requests[0].lastUserText).toContain('Question: Which version, and when?');
    } finally {
      await fake.close();
    }
  });

  it('follows a redirect to another host only where a domain rule allows it', async () => {
    const resolve = tableResolver({ 'elsewhere.test': ['127.0.0.1'] });
    const web = webAccess({ allow: ['127.0.0.1', 'elsewhere.test'] }, resolve);
    const call = async (permissions: RulePermissionEngine) =>
      (await webFetch.call(
        { url: `${site.url}/away` },
        { ...testContext(), permissions, web, signal: new AbortController().signal },
      )) as ToolResult;
    const reported = await call(engine({}));
    expect(reported.text).toBe(
      `${site.url}/away redirects (HTTP 302) to another host: http://elsewhere.test:${other.port}/\nCall web_fetch with that URL to read it.`,
    );
    expect(other.connections).toBe(0);
    const followed = await call(engine({ allow: ['web_fetch(domain:elsewhere.test)'] }));
    expect(followed.text).toContain('other host');
  });

  it('matches domain rules on the URL’s host: deny wins, globs cover subdomains', () => {
    const permissions = engine({
      allow: ['web_fetch(domain:*.example.com)'],
      deny: ['web_fetch(domain:bad.example.com)'],
    });
    const decide = (host: string) =>
      permissions.decide({
        tool: 'web_fetch',
        readOnly: true,
        subject: { kind: 'web', subjects: [host] },
        strictPlanRefused: false,
      }).behavior;
    expect(decide('docs.example.com')).toBe('allow');
    expect(decide('bad.example.com')).toBe('deny');
    expect(decide('example.org')).toBe('ask');
  });

  it('refuses a file: URL before asking anything', async () => {
    expect(await webFetch.validateInput({ url: 'file:///etc/passwd' }, testContext() as ToolContext)).toBe(
      'file: URLs are not fetched (only http and https)',
    );
  });

  it('reads web settings, and names the key of a wrong value', () => {
    const settings = mergeSettings([
      { source: 'a', settings: { web: { allow: ['10.0.0.0/8'], timeouts: { total: 5 } } } },
      {
        source: 'b',
        settings: {
          web: { allow: ['intranet.example'], search: { provider: 'brave', fallback: ['duckduckgo'] } },
        },
      },
    ]);
    expect(settings.web).toMatchObject({
      allow: ['10.0.0.0/8', 'intranet.example'],
      totalTimeoutMs: 5_000,
      connectTimeoutMs: 10_000,
      search: [{ provider: 'brave' }, { provider: 'duckduckgo' }],
    });
    expect(() => validateSettings({ web: { search: { provider: 'bing' } } }, 'settings.json')).toThrow(
      /settings\.json: "web\.search\.provider" must be one of native, brave, tavily, exa, searxng, duckduckgo/,
    );
    expect(() => validateSettings({ web: { search: { provider: 'searxng' } } }, 's')).toThrow(/needs "url"/);
  });

  it('ignores web.allow and web.search from a folder the user has not trusted', () => {
    const settings = mergeSettings([
      {
        source: 'workspace',
        untrusted: true,
        settings: {
          web: { allow: ['10.0.0.0/8'], search: { provider: 'searxng', url: 'http://x' }, maxBytes: 1000 },
        },
      },
    ]);
    expect(settings.web.allow).toEqual([]);
    expect(settings.web.search).toEqual([]);
    expect(settings.web.maxBytes).toBe(1000);
    expect(settings.ignoredUntrusted).toEqual(['web.allow', 'web.search']);
  });
});
