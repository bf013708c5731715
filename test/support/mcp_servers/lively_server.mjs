#!/usr/bin/env node
// An MCP server (stdio) whose lists change while it runs, for the client's session tests: it adds
// and removes a tool, a prompt and a resource on request, reports progress, notices a call being
// cancelled, logs at every level, and offers a prompt with arguments and a text resource.
// `--cancel-file FILE` writes the id of each cancelled call's request into FILE.
import { appendFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const cancelAt = process.argv.indexOf('--cancel-file');
const cancelFile = cancelAt > 0 ? process.argv[cancelAt + 1] : undefined;

const server = new McpServer(
  { name: 'lively', version: '1.0.0' },
  {
    capabilities: {
      logging: {},
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { listChanged: true },
    },
  },
);
const text = (t) => ({ content: [{ type: 'text', text: t }] });

let late;
let addedLater = false;

server.registerTool('add_tool', { description: 'Adds the tool "late".' }, () => {
  late ??= server.registerTool('late', { description: 'A tool added mid-session.' }, () =>
    text('late says hi'),
  );
  return text('added');
});
server.registerTool('remove_tool', { description: 'Removes the tool "late".' }, () => {
  late?.remove();
  late = undefined;
  return text('removed');
});
server.registerTool('add_prompt_and_resource', { description: 'Adds a prompt and a resource.' }, () => {
  if (addedLater) return text('added');
  addedLater = true;
  server.registerPrompt('later', { description: 'A prompt added mid-session.' }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'the later prompt' } }],
  }));
  server.registerResource('later notes', 'lively://later', { mimeType: 'text/plain' }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'later notes' }],
  }));
  return text('added');
});

server.registerTool(
  'slow',
  { description: 'Reports three steps of progress, then waits until cancelled.' },
  async (extra) => {
    const token = extra._meta?.progressToken;
    for (let step = 1; step <= 3 && token !== undefined; step++) {
      await extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: step, total: 3, message: `step ${step}` },
      });
    }
    await new Promise((resolve) => {
      if (extra.signal.aborted) resolve();
      extra.signal.addEventListener('abort', resolve, { once: true });
    });
    if (cancelFile) appendFileSync(cancelFile, `${extra.requestId}\n`);
    return text('cancelled');
  },
);

server.registerTool('log', { description: 'Logs one message at each level.' }, async () => {
  for (const level of ['debug', 'info', 'warning', 'error']) {
    await server.sendLoggingMessage({ level, logger: 'lively', data: `a ${level} message` });
  }
  return text('logged');
});

server.registerPrompt(
  'greet',
  { description: 'Greets someone by name.', argsSchema: { name: z.string(), mood: z.string().optional() } },
  ({ name, mood }) => ({
    messages: [
      { role: 'user', content: { type: 'text', text: `Say hello to ${name}${mood ? `, ${mood}` : ''}.` } },
    ],
  }),
);

server.registerResource(
  'notes',
  'lively://notes',
  { mimeType: 'text/plain', description: 'Some notes.' },
  (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'The notes say: remember the milk.' }],
  }),
);

await server.connect(new StdioServerTransport());
