/** A complete MCP server in one file: the guide shows it, and a test runs it. */
export const EXAMPLE_SERVER = `#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'units', version: '1.0.0' });

server.registerTool(
  'convert_temperature',
  {
    description: 'Convert a temperature between Celsius (C) and Fahrenheit (F).',
    inputSchema: {
      value: z.number().describe('The temperature to convert'),
      to: z.enum(['C', 'F']).describe('The unit to convert to'),
    },
    annotations: { readOnlyHint: true },
  },
  async ({ value, to }) => {
    const result = to === 'F' ? (value * 9) / 5 + 32 : ((value - 32) * 5) / 9;
    return { content: [{ type: 'text', text: \`\${result.toFixed(1)} °\${to}\` }] };
  },
);

server.registerResource(
  'conversion-table',
  'units://table',
  { description: 'Common temperatures in both units', mimeType: 'text/plain' },
  async (uri) => ({
    contents: [{ uri: uri.href, text: '0 °C = 32 °F\\n37 °C = 98.6 °F\\n100 °C = 212 °F' }],
  }),
);

// stdout carries the protocol: log to stderr only.
await server.connect(new StdioServerTransport());
console.error('units MCP server running on stdio');
`;

export const MCP_GUIDE = `# Writing an MCP server and adding it to lathe

The Model Context Protocol (MCP) lets a program offer tools (actions with a JSON Schema for their
arguments) and resources (documents addressed by URI) to any agent. lathe starts each configured
server as a child process speaking JSON-RPC on stdin/stdout (stdio), or connects to one over HTTP
(streamable HTTP, or the older SSE), and offers its tools to the model as \`server__tool\`.

## 1. A working server (Node.js, TypeScript SDK)

\`\`\`sh
mkdir units-server && cd units-server
npm init -y && npm pkg set type=module
npm install @modelcontextprotocol/sdk zod
\`\`\`

Save this as \`server.mjs\`:

\`\`\`js
${EXAMPLE_SERVER}\`\`\`

Other languages have official SDKs too (Python: \`pip install mcp\`, then \`FastMCP\` with
\`@mcp.tool()\` functions; Go, Rust, Java, C#, Kotlin, Swift, Ruby).

## 2. Add it to lathe

\`\`\`sh
lathe mcp add units -- node /absolute/path/to/units-server/server.mjs
lathe mcp test units     # connects, lists the tools, prints the round-trip time
lathe mcp list           # every server, its state and tool count
\`\`\`

\`lathe mcp add\` writes \`$LATHE_HOME/settings/mcp_settings.json\` (all projects); with
\`--workspace\` it writes \`.agents/mcp/units.json\` in this project instead. The file format is the
one other agents use, so their files can be copied over:

\`\`\`json
{
  "mcpServers": {
    "units": {
      "command": "node",
      "args": ["/absolute/path/to/units-server/server.mjs"],
      "env": { "API_KEY": "\${UNITS_API_KEY}" },
      "autoApprove": ["convert_temperature"],
      "timeout": 60
    },
    "remote": { "type": "streamableHttp", "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer \${TOKEN}" } }
  }
}
\`\`\`

- stdio servers: \`command\`, \`args\`, \`cwd\` (relative to the workspace), \`env\` (added to lathe's environment).
- HTTP servers: \`url\`, \`headers\`, \`type\`: \`streamableHttp\` (also \`http\`; the default for a url) or \`sse\`.
- \`\${NAME}\` and \`\${NAME:-default}\` are expanded from the environment in args, env, headers and url.
- \`autoApprove\`: tools that run without asking. \`disabled: true\` keeps an entry without starting it.
  \`timeout\`: seconds a request may take (default 60); a slower call is cancelled.
- Workspace files (\`.agents/mcp/*.json\`) override global servers of the same name.

## 3. How lathe uses it

- The tools appear as \`units__convert_temperature\` (names sanitised to letters, digits, \`_\` and \`-\`,
  at most 64 characters). \`use_mcp_tool\`, \`load_mcp\`, \`list_mcp_resources\` and
  \`access_mcp_resource\` reach any server by name.
- Calls need approval (category \`mcp\`) unless the tool is in \`autoApprove\`, an allow rule names it
  (\`"permissions": {"allow": ["units__*"]}\`), or the run says \`--approve mcp\`.
- Servers start in parallel when lathe starts; one that fails is reported and retried when next used;
  one that crashes is restarted. Results over about 25,000 tokens are saved to a file and previewed.

## 4. Tips for a good server

- One clear sentence per tool description, and a \`describe()\` on every parameter: the model reads them.
- Return errors as results (\`isError: true\` with a message saying what to do), not as crashes.
- Keep results small and textual; offer large data as resources the model can read on demand.
- Never write to stdout except through the SDK: it is the protocol channel. Log to stderr.
- Mark tools that only read with \`annotations: { readOnlyHint: true }\`.
`;
