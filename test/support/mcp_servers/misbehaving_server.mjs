#!/usr/bin/env node
// An MCP server (stdio) that misbehaves on request, for the client's failure tests: it crashes
// mid-call, hangs, answers slowly, sends images and huge results, and has awkward tool names.
// `--exit-at-start` makes it exit before the handshake, like a server with a broken install;
// `--exit-at-start-unless FILE` does so until FILE exists (a server that gets fixed);
// `--silent` reads its input and never answers (a hung server); `--start-when FILE` answers
// nothing until FILE exists, then starts (a slow server).
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

const unless = process.argv.indexOf('--exit-at-start-unless');
if (process.argv.includes('--exit-at-start') || (unless > 0 && !existsSync(process.argv[unless + 1]))) {
  process.stderr.write('misbehaving: missing configuration file, giving up\n');
  process.exit(2);
}

if (process.argv.includes('--silent')) {
  process.stdin.on('data', () => {});
  process.stdin.on('end', () => process.exit(0));
  await new Promise(() => {});
}

const startWhen = process.argv.indexOf('--start-when');
if (startWhen > 0) {
  // Requests that arrive meanwhile wait in the pipe and are answered once the server starts.
  while (!existsSync(process.argv[startWhen + 1])) await sleep(50);
}

// A 1×1 transparent PNG.
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const object = (properties = {}, required = []) => ({ type: 'object', properties, required });

const tools = [
  {
    name: 'echo',
    description: 'Echo the text back.',
    inputSchema: object({ text: { type: 'string' } }, ['text']),
  },
  {
    name: 'pid',
    description: 'The server process id.',
    inputSchema: object(),
    annotations: { readOnlyHint: true },
  },
  { name: 'crash', description: 'Exit the process in the middle of the call.', inputSchema: object() },
  { name: 'hang', description: 'Never answer.', inputSchema: object() },
  {
    name: 'slow',
    description: 'Answer after ms milliseconds.',
    inputSchema: object({ ms: { type: 'number' } }),
  },
  { name: 'image', description: 'A tiny PNG image.', inputSchema: object() },
  {
    name: 'big',
    description: 'A text of chars characters.',
    inputSchema: object({ chars: { type: 'number' } }),
  },
  { name: 'fail', description: 'A tool error result.', inputSchema: object() },
  { name: 'weather.lookup', description: 'A dotted name: forecast for a city.', inputSchema: object() },
  {
    name: `very_long_tool_name_${'x'.repeat(60)}`,
    description: 'A name over 64 characters.',
    inputSchema: object(),
  },
];

const server = new Server(
  { name: 'misbehaving', version: '1.0.0' },
  { capabilities: { tools: {}, resources: {} } },
);

server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = request.params.arguments ?? {};
  const text = (t) => ({ content: [{ type: 'text', text: t }] });
  switch (request.params.name) {
    case 'echo':
      return text(String(args.text));
    case 'pid':
      return text(String(process.pid));
    case 'crash':
      process.stderr.write('misbehaving: crashing on purpose\n');
      setTimeout(() => process.exit(3), 10);
      return new Promise(() => {});
    case 'hang':
      return new Promise(() => {});
    case 'slow':
      await new Promise((resolve) => setTimeout(resolve, Number(args.ms ?? 100)));
      return text(`answered after ${args.ms} ms`);
    case 'image':
      return {
        content: [
          { type: 'text', text: 'a pixel:' },
          { type: 'image', data: PIXEL, mimeType: 'image/png' },
        ],
      };
    case 'big':
      return text('x'.repeat(Number(args.chars ?? 1000)));
    case 'fail':
      return { content: [{ type: 'text', text: 'the lookup failed: no such city' }], isError: true };
    default:
      return text(`called ${request.params.name}`);
  }
});

server.setRequestHandler(ListResourcesRequestSchema, async () => ({
  resources: [{ uri: 'test://hello', name: 'hello', mimeType: 'text/plain' }],
}));

server.setRequestHandler(ReadResourceRequestSchema, async (request) => ({
  contents: [{ uri: request.params.uri, mimeType: 'text/plain', text: `contents of ${request.params.uri}` }],
}));

await server.connect(new StdioServerTransport());
