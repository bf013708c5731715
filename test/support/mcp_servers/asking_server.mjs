#!/usr/bin/env node
// An MCP server (stdio) that asks the user through elicitation, for the clients' tests: `form`
// asks for a string with a default, a number with bounds, a boolean and an enum; `link` asks to
// open a URL, then says the flow is complete. Each returns what it got back, as JSON.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'asking', version: '1.0.0' });
const text = (t) => ({ content: [{ type: 'text', text: t }] });

server.registerTool('form', { description: 'Asks for a project’s details.' }, async () => {
  const result = await server.server.elicitInput({
    mode: 'form',
    message: 'Describe the project to create.',
    requestedSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Name', description: 'The project’s name', default: 'demo' },
        workers: { type: 'integer', title: 'Workers', minimum: 1, maximum: 8 },
        private: { type: 'boolean', title: 'Private', default: false },
        colour: { type: 'string', title: 'Colour', enum: ['red', 'green', 'blue'], default: 'green' },
      },
      required: ['name', 'workers'],
    },
  });
  return text(`got ${JSON.stringify(result)}`);
});

server.registerTool('link', { description: 'Asks to connect an account in the browser.' }, async () => {
  const elicitationId = 'connect-1';
  const result = await server.server.elicitInput({
    mode: 'url',
    message: 'Connect your account to go on.',
    url: 'https://accounts.example.com/connect?session=42',
    elicitationId,
  });
  if (result.action === 'accept') await server.server.createElicitationCompletionNotifier(elicitationId)();
  return text(`got ${JSON.stringify(result)}`);
});

await server.connect(new StdioServerTransport());
