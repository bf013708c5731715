import { z } from 'zod';
import { buildTool } from '../tool/build_tool.js';
import type { Tool, ToolContext, ToolDefinition, ToolKind, ToolOutput } from '../tool/types.js';
import { UsageError } from './errors.js';

/** What a handler may return: text, lathe's tool output, or an MCP tool result (`content` blocks). */
export type ToolHandlerResult =
  | string
  | ToolOutput
  | { content: Array<{ type: string; text?: string }>; isError?: boolean };

/** The declaration of a program's tool beyond its name, description and schema. */
export interface ToolOptions<I>
  extends Partial<Omit<ToolDefinition<I>, 'name' | 'description' | 'inputSchema' | 'call'>> {
  /** What the tool does (the kinds built-in tools use); default `other`. */
  kind?: ToolKind;
  /** Only reads: allowed in Plan mode, and run in parallel with other such calls. */
  readOnly?: boolean;
  /** May delete or overwrite what it cannot restore. */
  destructive?: boolean;
  /** The earlier name of `userFacingName`, still taken: the name people see for the tool. */
  title?: (input: I | undefined) => string;
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

function isSchema(value: unknown): value is z.ZodType {
  return typeof (value as z.ZodType | undefined)?.safeParse === 'function';
}

/** A handler's answer as the output every tool returns. */
function toolOutput(result: ToolHandlerResult): ToolOutput {
  if (typeof result === 'string') return { text: result };
  if ('content' in result && Array.isArray(result.content)) {
    const text = result.content.map((block) => block.text ?? `[${block.type}]`).join('\n');
    return { text, isError: result.isError ?? false };
  }
  return result as ToolOutput;
}

/**
 * A tool of the program's own, with the declaration every built-in tool has: it joins the pool
 * after the built-ins (`options.tools` of `query()`), its input is checked against the schema
 * (a zod schema or a shape of zod fields) and its calls go through the same permissions, hooks
 * and result budget. Calls are allowed unless a rule asks or denies (Plan mode asks for those
 * not `readOnly`).
 */
export function tool<Shape extends z.ZodRawShape | z.ZodType>(
  name: string,
  description: string,
  schema: Shape,
  handler: (
    input: Shape extends z.ZodType ? z.output<Shape> : z.output<z.ZodObject<Extract<Shape, z.ZodRawShape>>>,
    context: ToolContext,
  ) => Promise<ToolHandlerResult> | ToolHandlerResult,
  options: ToolOptions<unknown> = {},
): Tool {
  if (!NAME.test(name))
    throw new UsageError(`tool "${name}": a name is 1 to 64 letters, digits, _ and - (the providers' rule)`);
  if (!description.trim()) throw new UsageError(`tool "${name}": give it a description; the model reads it`);
  const inputSchema = isSchema(schema) ? schema : z.object(schema as z.ZodRawShape);
  const { kind, readOnly, destructive, title, ...declaration } = options;
  const definition: ToolDefinition<unknown> = {
    availability: { profiles: ['standard', 'lite', 'simple'] },
    ...(title ? { userFacingName: title } : {}),
    isReadOnly: () => readOnly ?? false,
    isConcurrencySafe: () => readOnly ?? false,
    isDestructive: () => destructive ?? false,
    ...declaration,
    name,
    description,
    inputSchema: inputSchema as z.ZodType<unknown>,
    kind: kind ?? 'other',
    call: async (input, context) => toolOutput(await handler(input as never, context)),
  };
  return buildTool(definition, 'external');
}
