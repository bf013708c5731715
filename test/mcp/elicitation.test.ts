import { afterEach, describe, expect, it } from 'vitest';
import type { ElicitationRequest } from '../../src/mcp/elicitation.js';
import { McpHub } from '../../src/mcp/hub.js';
import { everythingStdio } from '../support/mcp_servers/peers.js';

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
    expect(asked[0]).toEqual({
      server: 'everything',
      mode: 'url',
      message: 'Please open the link to complete this action.',
      url: 'https://example.com/connect',
      elicitationId: 'e-1',
    });
    expect(out.text).toContain('User completed the URL elicitation flow');
  });
});
