import type { ElicitationCapabilities, McpServerStdio } from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { ASKING_SERVER } from '../support/mcp_servers/peers.js';
import { eventually } from '../support/processes.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';
import { cleanUp, editorOn, fakeServer, startAgent } from './stdio_support.js';

// `lathe acp` over a real pipe, with a real MCP server that asks the user (elicitation).

afterEach(cleanUp);

const ask = (tool: 'form' | 'link') => ({
  toolCalls: [{ name: 'use_mcp_tool', input: { server_name: 'asking', tool_name: tool, arguments: {} } }],
});
const asking: McpServerStdio = { name: 'asking', command: process.execPath, args: [ASKING_SERVER], env: [] };

async function session(turns: Parameters<typeof fakeServer>[0], elicitation?: ElicitationCapabilities) {
  const server = await fakeServer(turns);
  const agentProcess = startAgent(server, tempDir('lathe-home-'));
  const { agent, editor } = editorOn(agentProcess.child);
  await agent.request('initialize', {
    protocolVersion: 1,
    clientCapabilities: elicitation ? { elicitation } : {},
  });
  const cwd = writeTree({}, 'lathe-acp-');
  const { sessionId } = await agent.request('session/new', { cwd, mcpServers: [asking] });
  const toolResults = () =>
    server.requests.filter((r) => r.kind === 'model').flatMap((r) => r.toolResults.map((t) => t.content));
  return { agent, editor, sessionId, toolResults };
}

describe('MCP elicitation over ACP', () => {
  it('passes a server’s form and link to an editor that offers elicitation, and its answers back', async () => {
    const { agent, editor, sessionId, toolResults } = await session(
      [ask('form'), ask('link'), { text: 'Done.' }],
      { form: {}, url: {} },
    );
    editor.elicitationAnswer = (request) =>
      request.mode === 'form'
        ? { action: 'accept', content: { name: 'atlas', workers: 2, private: true, colour: 'red' } }
        : { action: 'accept' };
    const answer = await agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'set it up' }],
    });
    expect(answer.stopReason).toBe('end_turn');
    const [form, link] = editor.elicitations;
    expect(form).toMatchObject({
      sessionId,
      mode: 'form',
      message: 'MCP server "asking": Describe the project to create.',
      requestedSchema: {
        properties: { workers: { type: 'integer', minimum: 1, maximum: 8 } },
        required: ['name', 'workers'],
      },
    });
    expect(link).toMatchObject({
      sessionId,
      mode: 'url',
      url: 'https://accounts.example.com/connect?session=42',
      elicitationId: 'connect-1',
    });
    expect(toolResults()[0]).toContain(
      'got {"action":"accept","content":{"name":"atlas","workers":2,"private":true,"colour":"red"}}',
    );
    expect(toolResults()[1]).toContain('got {"action":"accept"}');
    // The server said the link's flow is complete: the editor hears it.
    await eventually(() => editor.completedElicitations.includes('connect-1'));
  });

  it('declines for an editor that offers no elicitation, and asks it nothing', async () => {
    const { agent, editor, sessionId, toolResults } = await session([ask('form'), { text: 'Declined.' }]);
    await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'set it up' }] });
    expect(editor.elicitations).toEqual([]);
    expect(toolResults()[0]).toContain('got {"action":"decline"}');
  });

  it('declines a link for an editor that offers only forms', async () => {
    const { agent, editor, sessionId, toolResults } = await session([ask('link'), { text: 'No link.' }], {
      form: {},
    });
    await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'connect' }] });
    expect(editor.elicitations).toEqual([]);
    expect(toolResults()[0]).toContain('got {"action":"decline"}');
  });
});
