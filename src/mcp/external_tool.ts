import { z } from 'zod';
import { buildTool, MCP_RESULT_CHARS } from '../tool/build_tool.js';
import type { Tool, ToolOutput } from '../tool/types.js';
import type { RemoteTool } from './connection.js';

/** Descriptions past this are cut: some servers ship whole manuals in them. */
const MAX_DESCRIPTION = 4_000;

const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A zod schema that accepts any JSON object and whose JSON Schema is the server's own, passed
 * through unchanged: the server validates its arguments and says what is wrong.
 */
export function passThroughSchema(jsonSchema: Record<string, unknown>): z.ZodType<Record<string, unknown>> {
  // zod reads an `id` in metadata as a registry id (which must be unique); it means nothing to providers.
  const { id: _id, ...schema } = jsonSchema;
  if (schema.type === undefined) schema.type = 'object';
  if (schema.type === 'object' && schema.properties === undefined) schema.properties = {};
  return z.any().refine(isObject, 'the arguments must be a JSON object').meta(schema) as unknown as z.ZodType<
    Record<string, unknown>
  >;
}

/** Whether the server says its tool only reads (a hint; the MCP approval category still applies). */
export const isReadOnlyTool = (remote: RemoteTool) => remote.annotations?.readOnlyHint === true;

/**
 * A server's tool as a lathe tool named `server__tool`: its JSON Schema passed through, results
 * budgeted at about 25,000 tokens, approval through the MCP category (rules `server__tool`, `server__*`).
 */
export function externalTool(options: {
  name: string;
  server: string;
  remote: RemoteTool;
  call: (
    args: Record<string, unknown>,
    signal: AbortSignal,
    progress?: (m: string) => void,
  ) => Promise<ToolOutput>;
}): Tool {
  const { name, server, remote } = options;
  const readOnly = isReadOnlyTool(remote);
  const destructive = !readOnly && remote.annotations?.destructiveHint === true;
  const about = remote.description.trim() || `Tool "${remote.name}" of MCP server "${server}".`;
  const description = `[MCP ${server}] ${about.length > MAX_DESCRIPTION ? `${about.slice(0, MAX_DESCRIPTION)}…` : about}`;
  return buildTool(
    {
      name,
      inputSchema: passThroughSchema(remote.inputSchema),
      description,
      // Not in the simple profile: it offers only its three core tools.
      availability: { profiles: ['standard', 'lite'], requires: ['mcp'] },
      // A server's tool may do anything; its annotations say only whether it reads or destroys.
      kind: 'other',
      maxResultChars: MCP_RESULT_CHARS,
      permissionSubject: () => ({ kind: 'mcp', subjects: [name] }),
      isReadOnly: () => readOnly,
      isConcurrencySafe: () => readOnly,
      isDestructive: () => destructive,
      userFacingName: () => `${server}: ${remote.annotations?.title ?? remote.name}`,
      call: (input, ctx) => options.call(input, ctx.signal, ctx.progress),
    },
    'external',
  );
}
