// Tools of the program's own: one made with tool(), and one of an MCP server running in this
// process. Both join the pool after the built-in tools.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { query, tool } from 'lathe';
import { z } from 'zod';

const orders: Record<string, string> = { '42': 'shipped on Monday', '43': 'waiting for stock' };

const lookupOrder = tool(
  'lookup_order',
  'Looks up the status of an order by its id',
  { id: z.string().describe('the order id, e.g. "42"') },
  async ({ id }) => (orders[id] ? `order ${id}: ${orders[id]}` : `no order ${id}`),
  { kind: 'read', readOnly: true },
);

const weather = new McpServer({ name: 'weather', version: '1.0.0' });
weather.registerTool(
  'forecast',
  { description: 'Tomorrow’s weather in a city', inputSchema: { city: z.string() } },
  async ({ city }) => ({ content: [{ type: 'text', text: `${city}: sunny, 21 °C` }] }),
);

const run = query({
  prompt: 'Where is order 42, and will it rain in Lyon tomorrow?',
  options: {
    model: process.env.LATHE_MODEL ?? 'anthropic/claude-sonnet-4-5',
    tools: [lookupOrder],
    mcpServers: { weather },
    // MCP tools ask before they run; this program allows its own server's.
    allowedTools: ['weather__forecast'],
  },
});

for await (const message of run) {
  if (message.type === 'tool_result') console.log(`${message.name}: ${message.text}`);
  if (message.type === 'result') console.log(message.result);
}
