import { z } from 'zod';
import type { Profile } from '../config/types.js';
import { buildFile } from './build_file.js';
import { isLazySchema } from './lazy_schema.js';
import type { Tool } from './types.js';

export interface ToolDefinitionForModel {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

type JsonSchema = Record<string, unknown>;

const schemaCache = new WeakMap<Tool, JsonSchema>();
/**
 * The JSON Schemas the build derived from the built-in tools' lazy schemas (dist/tool-schemas.json):
 * a run then builds no zod schema to describe its tools.
 */
const buildSchemas = buildFile<Record<string, JsonSchema>>('tool-schemas.json');

/**
 * A schema without the bounds zod gives every integer (±2^53-1): they say nothing a model needs and
 * cost tokens in every request.
 */
function withoutSafeIntegerBounds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSafeIntegerBounds);
  if (value === null || typeof value !== 'object') return value;
  const out: JsonSchema = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === 'maximum' && item === Number.MAX_SAFE_INTEGER) continue;
    if (key === 'minimum' && item === Number.MIN_SAFE_INTEGER) continue;
    out[key] = withoutSafeIntegerBounds(item);
  }
  return out;
}

/** The JSON Schema of a tool's input, derived from its zod schema. */
export function deriveJsonSchema(tool: Tool): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(tool.inputSchema as z.ZodType, {
    io: 'input',
  }) as JsonSchema;
  return withoutSafeIntegerBounds(rest) as JsonSchema;
}

/** The JSON Schema of a tool's input: the build's for a built-in tool's lazy schema, else derived once. */
export function inputJsonSchema(tool: Tool): JsonSchema {
  let schema = schemaCache.get(tool);
  if (!schema) {
    const built =
      tool.source === 'builtin' && isLazySchema(tool.inputSchema) ? buildSchemas()[tool.name] : undefined;
    schema = built ?? deriveJsonSchema(tool);
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
