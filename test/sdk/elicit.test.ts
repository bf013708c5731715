import { afterEach, describe, expect, it } from 'vitest';
import type { ElicitationRequest } from '../../src/mcp/elicitation.js';
import { query } from '../../src/sdk/query.js';
import { ASKING_SERVER } from '../support/mcp_servers/peers.js';
import { closeSdkServers, readAll, sdkSetup } from './support.js';

afterEach(closeSdkServers);

const ask = (tool: 'form' | 'link') => ({
  toolCalls: [{ name: 'use_mcp_tool', input: { server_name: 'asking', tool_name: tool, arguments: {} } }],
});
const done = { toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] };
const asking = { command: process.execPath, args: [ASKING_SERVER], autoApprove: ['form', 'link'] };

describe('the SDK’s elicit option', () => {
  it('answers a server’s form and link in the program, ahead of `answers`', async () => {
    const { options, modelRequests } = await sdkSetup([ask('form'), ask('link'), done]);
    const asked: ElicitationRequest[] = [];
    let linkCompleted: Promise<void> | undefined;
    await readAll(
      query({
        prompt: 'set it up',
        options: {
          ...options,
          mcpServers: { asking },
          answers: ['no'],
          elicit: async (request) => {
            asked.push(request);
            if (request.mode === 'url') {
              linkCompleted = request.completed;
              return { action: 'accept' };
            }
            return { action: 'accept', content: { name: 'atlas', workers: 4 } };
          },
        },
      }),
    );
    const [form, link] = asked;
    expect(form).toMatchObject({
      server: 'asking',
      mode: 'form',
      message: 'Describe the project to create.',
    });
    if (form?.mode !== 'form') throw new Error('not a form');
    expect(form.fields.find((f) => f.name === 'workers')).toMatchObject({
      type: 'integer',
      required: true,
      minimum: 1,
      maximum: 8,
    });
    expect(form.fields.find((f) => f.name === 'colour')).toMatchObject({
      options: ['red', 'green', 'blue'],
      default: 'green',
    });
    expect(link).toMatchObject({ mode: 'url', elicitationId: 'connect-1' });
    const results = modelRequests().map((r) => r.toolResults[0]?.content ?? '');
    // The schema's defaults fill in the fields the answer left out.
    expect(results[1]).toContain('"content":{"name":"atlas","workers":4,"private":false,"colour":"green"}');
    expect(results[2]).toContain('got {"action":"accept"}');
    // The server said the link's step is complete.
    await linkCompleted;
  });
});
