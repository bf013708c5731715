import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { Protocol, WireJson } from './types.js';

/**
 * The tokens of a model request as the server received it (o200k), read from the wire body on
 * its own: the system prompt, each message's text, tool calls (name and JSON input), tool
 * results, and each tool definition (name, description, schema as JSON). Anthropic and OpenAI
 * Chat bodies; others count 0.
 */
export function requestTokens(protocol: Protocol | 'unknown', body: WireJson): number {
  if (!body || typeof body !== 'object') return 0;
  const texts: string[] = [];
  const blocks = (content: WireJson) => {
    if (typeof content === 'string') texts.push(content);
    else if (Array.isArray(content))
      for (const block of content) {
        if (block.type === 'text') texts.push(block.text);
        else if (block.type === 'tool_use') texts.push(block.name + JSON.stringify(block.input ?? {}));
        else if (block.type === 'tool_result') blocks(block.content);
        else if (block.type === 'thinking') texts.push(block.thinking);
      }
  };
  if (protocol === 'anthropic') {
    blocks(body.system);
    for (const message of body.messages ?? []) blocks(message.content);
    for (const tool of body.tools ?? [])
      texts.push(
        JSON.stringify({ name: tool.name, description: tool.description, inputSchema: tool.input_schema }),
      );
  } else if (protocol === 'openai-chat') {
    for (const message of body.messages ?? []) {
      blocks(message.content);
      for (const call of message.tool_calls ?? []) texts.push(call.function.name + call.function.arguments);
    }
    for (const tool of body.tools ?? []) {
      const { name, description, parameters } = tool.function;
      texts.push(JSON.stringify({ name, description, inputSchema: parameters }));
    }
  }
  return texts.reduce((sum, text) => sum + (text ? countTokens(text) : 0), 0);
}
