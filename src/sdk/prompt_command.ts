import { SLASH_COMMAND_NAMES } from '../config/commands/builtin_names.js';
import { parseInvocation } from '../config/commands/catalog.js';
import { ExpandError, type PromptCommand } from '../config/commands/prompt_command.js';
import { expandContextOf } from '../runtime/command_expansion.js';
import type { Runtime } from '../runtime/create_runtime.js';
import { UsageError } from './errors.js';

/** The prompt a headless run sends: as typed, or what the `/name args` it starts with expands to. */
export interface HeadlessPrompt {
  text: string;
  command?: PromptCommand;
  model?: string;
  allowedTools?: string[];
}

/**
 * `lathe -p "/name args"`: the custom command or workflow `name`, expanded (its `!{…}` parts run
 * as commands of this runtime). An unknown name is a usage error listing the known ones; the
 * interactive UI's own commands (`/init`) and a prompt that starts with a path go as typed.
 */
export async function headlessPrompt(
  runtime: Runtime,
  prompt: string,
  /** The MCP client once started, for `/server:prompt args`. */
  mcp?: Promise<unknown>,
): Promise<HeadlessPrompt> {
  const invocation = parseInvocation(prompt);
  if (!invocation || SLASH_COMMAND_NAMES.includes(invocation.name)) return { text: prompt };
  const command = runtime.commands.find(invocation.name);
  const served = command ? undefined : await serverPrompt(prompt, mcp);
  if (served) return served;
  if (!command) {
    const names = runtime.commands.names().map((name) => `/${name}`);
    throw new UsageError(
      `no command /${invocation.name}: ${names.length > 0 ? `the commands here are ${names.join(', ')}` : 'there are no custom commands or workflows here (.agents/commands/, .agents/workflows/)'}`,
    );
  }
  try {
    const expanded = await command.expand(invocation.args, expandContextOf(runtime));
    return { ...expanded, command };
  } catch (error) {
    if (error instanceof ExpandError) throw new UsageError(`/${command.name}: ${error.message}`);
    throw error;
  }
}

/** `/server:prompt args` for a configured MCP server: its messages; a usage error when they cannot be had. */
async function serverPrompt(prompt: string, mcp?: Promise<unknown>): Promise<HeadlessPrompt | undefined> {
  const { expandServerPrompt, promptSourceOf, serverPromptInvocation } = await import(
    '../mcp/prompt_command.js'
  );
  const source = promptSourceOf(await mcp);
  const invocation = source && serverPromptInvocation(prompt, source);
  if (!source || !invocation) return undefined;
  // The server may still be starting: getting the prompt waits for it (at most mcp.startupTimeout).
  const expanded = await expandServerPrompt(source, invocation, new AbortController().signal);
  if ('error' in expanded) throw new UsageError(expanded.error);
  return { text: expanded.text };
}

/**
 * A conversation's message `/name args`: the custom command, workflow or skill `name`, expanded;
 * undefined (the message goes as typed) when it names none, or its expansion fails.
 */
export async function conversationCommand(
  runtime: Runtime,
  text: string,
): Promise<HeadlessPrompt | undefined> {
  const invocation = parseInvocation(text);
  if (!invocation || SLASH_COMMAND_NAMES.includes(invocation.name)) return undefined;
  if (!runtime.commands.find(invocation.name)) return undefined;
  return headlessPrompt(runtime, text).catch(() => undefined);
}
