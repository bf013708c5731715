import { z } from 'zod';
import type { Profile } from '../config/types.js';
import type { Tool } from './types.js';

export interface ToolDefinitionForModel {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

const schemaCache = new WeakMap<Tool, Record<string, unknown>>();

/** The JSON Schema of a tool's input, derived once from its zod schema. */
export function inputJsonSchema(tool: Tool): Record<string, unknown> {
  let schema = schemaCache.get(tool);
  if (!schema) {
    const { $schema: _drop, ...rest } = z.toJSONSchema(tool.inputSchema as z.ZodType, {
      io: 'input',
    }) as Record<string, unknown>;
    schema = rest;
    schemaCache.set(tool, schema);
  }
  return schema;
}

/** What a provider is told about a tool: its name, the profile's description, its JSON Schema. */
export function definitionForModel(tool: Tool, profile: Profile): ToolDefinitionForModel {
  return {
    name: tool.name,
    description: profile === 'lite' ? tool.liteDescription : tool.description,
    inputSchema: inputJsonSchema(tool),
  };
}
