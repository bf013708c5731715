import type { ToolDefinitionForModel } from '../tool/definition.js';

/**
 * Tool calls in text, for models without native tool calling: the tools are described in the
 * system prompt and the model writes calls in the widely trained `<tool_call>` form, which lathe
 * parses back out of the reply.
 */
export function describeToolsInText(definitions: ToolDefinitionForModel[]): string {
  const tools = definitions.map(
    (d) => `- ${d.name}: ${d.description}\n  input schema: ${JSON.stringify(d.inputSchema)}`,
  );
  return [
    'Tools: call a tool by writing, on its own lines:',
    '<tool_call>',
    '{"name": "read_file", "arguments": {"path": "src/index.ts"}}',
    '</tool_call>',
    'You may write several tool_call blocks in one reply; then stop and wait for the results, which come back in <tool_result> blocks.',
    'Available tools:',
    ...tools,
  ].join('\n');
}

export interface TextToolCall {
  name: string;
  /** The arguments object, or the raw text when it was not valid JSON (the executor explains). */
  input: unknown;
}

const BLOCK = /<tool_call>\s*([\s\S]*?)\s*(?:<\/tool_call>|$)/g;

/** The tool calls written in a reply, and the reply's text without them. */
export function parseTextToolCalls(text: string): { calls: TextToolCall[]; prose: string } {
  const calls: TextToolCall[] = [];
  for (const match of text.matchAll(BLOCK)) {
    const body = match[1].replace(/^```(?:json)?\s*|\s*```$/g, '');
    try {
      const parsed = JSON.parse(body) as { name?: unknown; arguments?: unknown; input?: unknown };
      if (typeof parsed.name === 'string') {
        calls.push({ name: parsed.name, input: parsed.arguments ?? parsed.input ?? {} });
        continue;
      }
    } catch {
      // fall through: report the raw text
    }
    const name = /"name"\s*:\s*"([^"]+)"/.exec(body)?.[1] ?? 'unknown_tool';
    calls.push({ name, input: body });
  }
  return { calls, prose: text.replace(BLOCK, '').trim() };
}

export function formatTextToolResult(name: string, text: string, isError: boolean): string {
  return `<tool_result name="${name}"${isError ? ' error="true"' : ''}>\n${text}\n</tool_result>`;
}
