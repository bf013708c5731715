import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ElicitationRequest } from '../../src/mcp/elicitation.js';
import { McpHub } from '../../src/mcp/hub.js';
import { latheAsync } from '../support/cli.js';
import { FakeModelServer } from '../support/fake_model_server.js';
import { EVERYTHING_SERVER, everythingStdio } from '../support/mcp_servers/peers.js';
import { tempDir } from '../support/runtime_fixtures.js';

const signal = () => new AbortController().signal;

describe('MCP elicitation against server-everything', () => {
  let hub: McpHub | undefined;
  afterEach(async () => {
    await hub?.close();
    hub = undefined;
  });

  it('declines a form when there is no one to ask', async () => {
    hub = new McpHub([everythingStdio()]);
    await hub.connectAll();
    const out = await hub.callTool('everything', 'trigger-elicitation-request', {}, { signal: signal() });
    expect(out.isError).toBeUndefined();
    expect(out.text).toContain('User declined to provide the requested information');
  });

  it('shows the form’s fields with their types, defaults and options, and returns the answer', async () => {
    const asked: ElicitationRequest[] = [];
    hub = new McpHub([everythingStdio()], {
      elicit: async (request) => {
        asked.push(request);
        return { action: 'accept', content: { name: 'Ada', check: true } };
      },
    });
    await hub.connectAll();
    const out = await hub.callTool('everything', 'trigger-elicitation-request', {}, { signal: signal() });
    expect(out.text).toContain('- Name: Ada');
    expect(out.text).toContain('- Agreed to terms: true');
    // The schema's defaults are filled in for the fields left out.
    expect(out.text).toContain('- Favorite Integer: 42');
    const form = asked[0];
    expect(form).toMatchObject({ server: 'everything', mode: 'form' });
    if (form?.mode !== 'form') throw new Error('not a form');
    const field = (name: string) => form.fields.find((f) => f.name === name);
    expect(field('name')).toMatchObject({ type: 'string', required: true, title: 'String' });
    expect(field('integer')).toMatchObject({ type: 'integer', required: false, default: 42 });
    expect(field('titledSingleSelectEnum')?.options).toEqual(['hero-1', 'hero-2', 'hero-3']);
    expect(field('untitledMultipleSelectEnum')).toMatchObject({ type: 'array', default: ['Guitar'] });
    expect(field('untitledMultipleSelectEnum')?.options).toContain('Piano');
  });

  it('passes a URL elicitation on and tells the server the outcome', async () => {
    const asked: ElicitationRequest[] = [];
    hub = new McpHub([everythingStdio()], {
      elicit: async (request) => {
        asked.push(request);
        return { action: 'accept' };
      },
    });
    await hub.connectAll();
    const out = await hub.callTool(
      'everything',
      'trigger-url-elicitation',
      { url: 'https://example.com/connect', elicitationId: 'e-1' },
      { signal: signal() },
    );
    expect(asked[0]).toMatchObject({
      server: 'everything',
      mode: 'url',
      message: 'Please open the link to complete this action.',
      url: 'https://example.com/connect',
      elicitationId: 'e-1',
    });
    expect(out.text).toContain('User completed the URL elicitation flow');
  });
});

describe('MCP elicitation in a headless run', () => {
  let model: FakeModelServer | undefined;
  afterEach(async () => {
    await model?.close();
    model = undefined;
  });

  it('answers a server’s form from --answers (a JSON object), then declines when none is left', async () => {
    const workspace = tempDir('elicit-ws-');
    mkdirSync(join(workspace, '.agents', 'mcp'), { recursive: true });
    writeFileSync(
      join(workspace, '.agents', 'mcp', 'servers.json'),
      JSON.stringify({
        mcpServers: {
          everything: {
            command: process.execPath,
            args: [EVERYTHING_SERVER, 'stdio'],
            autoApprove: ['trigger-elicitation-request'],
          },
        },
      }),
    );
    const answers = join(tempDir('elicit-answers-'), 'answers.json');
    writeFileSync(answers, JSON.stringify(['{"name": "Ada"}']));
    const call = {
      name: 'use_mcp_tool',
      input: { server_name: 'everything', tool_name: 'trigger-elicitation-request', arguments: {} },
    };
    model = await FakeModelServer.start({
      turns: [
        { toolCalls: [call] },
        { toolCalls: [call] },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] },
      ],
    });
    const r = await latheAsync(
      ['-p', 'ask me', '--model', 'anthropic/claude-sonnet-4-5', '--trust', '--answers', answers],
      {
        cwd: workspace,
        env: {
          LATHE_HOME: tempDir('lathe-home-'),
          NODE_ENV: 'test',
          ANTHROPIC_BASE_URL: model.url,
          ANTHROPIC_API_KEY: 'k',
        },
      },
    );
    expect(r.code).toBe(0);
    const requests = model.requests.filter((q) => q.kind === 'model');
    expect(requests[1].toolResults[0].content).toContain('- Name: Ada');
    expect(requests[2].toolResults[0].content).toContain(
      'User declined to provide the requested information',
    );
  });
});
