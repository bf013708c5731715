import type { PromptMessage, PromptMessages } from './connection.js';
import type { RemotePrompt } from './server_lists.js';

/** What running a server's prompt needs of the MCP client (the hub). */
export interface PromptSource {
  readonly configs: ReadonlyArray<{ name: string }>;
  prompts(): Array<{ server: string; prompt: RemotePrompt }>;
  /** One server's prompts once it is up; throws a one-line reason when it cannot be. */
  promptsOf(server: string): Promise<RemotePrompt[]>;
  getPrompt(
    server: string,
    prompt: string,
    args: Record<string, string>,
    signal: AbortSignal,
  ): Promise<PromptMessages>;
}

/** `/server:prompt args`, when `server` is a configured MCP server. */
export function serverPromptInvocation(
  line: string,
  source: PromptSource,
): { server: string; prompt: string; args: string } | undefined {
  const match = /^\/([A-Za-z0-9_-]+):(\S+)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (!match || !source.configs.some((c) => c.name === match[1])) return undefined;
  return { server: match[1], prompt: match[2], args: (match[3] ?? '').trim() };
}

/**
 * The arguments as the prompt names them: `key=value` words (quotes keep spaces), and the rest
 * in the prompt's order, the last argument taking what is left. A required one missing is an error.
 */
export function promptArguments(prompt: RemotePrompt, args: string): Record<string, string> | string {
  const named: Record<string, string> = {};
  const loose: string[] = [];
  for (const [, word] of args.matchAll(/((?:[^\s"]+|"[^"]*")+)/g)) {
    const pair = /^([A-Za-z0-9_-]+)=(.*)$/s.exec(word);
    const unquote = (text: string) => text.replace(/"([^"]*)"/g, '$1');
    if (pair && prompt.arguments.some((a) => a.name === pair[1])) named[pair[1]] = unquote(pair[2]);
    else loose.push(unquote(word));
  }
  const open = prompt.arguments.filter((a) => named[a.name] === undefined);
  open.forEach((argument, i) => {
    if (i >= loose.length) return;
    named[argument.name] = i === open.length - 1 ? loose.slice(i).join(' ') : loose[i];
  });
  if (open.length === 0 && loose.length > 0) return `has more words than arguments ${usage(prompt)}`;
  const missing = prompt.arguments.filter((a) => a.required && named[a.name] === undefined);
  if (missing.length > 0) return `needs ${missing.map((a) => a.name).join(', ')} ${usage(prompt)}`;
  return named;
}

/** What a prompt takes: `name=… [mood=…]`. */
function usage(prompt: RemotePrompt): string {
  const words = prompt.arguments.map((a) => (a.required ? `${a.name}=…` : `[${a.name}=…]`));
  return words.length > 0 ? `(it takes ${words.join(' ')})` : '(it takes no arguments)';
}

/** A prompt's messages as one text for the model: each message's text, an assistant's marked. */
export function promptText(messages: readonly PromptMessage[]): string {
  return messages
    .map((m) => {
      const content = m.content;
      const resource = content.resource as { uri?: string; text?: string } | undefined;
      const text =
        content.type === 'text'
          ? (content.text ?? '')
          : resource?.text !== undefined
            ? `<resource uri="${resource.uri}">\n${resource.text}\n</resource>`
            : `[${content.type} content left out]`;
      return m.role === 'assistant' ? `(assistant) ${text}` : text;
    })
    .join('\n\n');
}

/** `/server:prompt args` expanded to the text to send, or a one-line reason it could not be. */
export async function expandServerPrompt(
  source: PromptSource,
  invocation: { server: string; prompt: string; args: string },
  signal: AbortSignal,
): Promise<{ text: string } | { error: string }> {
  const { server, prompt: name, args } = invocation;
  let offered: RemotePrompt[];
  try {
    offered = await source.promptsOf(server);
  } catch (error) {
    return { error: (error as Error).message };
  }
  const prompt = offered.find((p) => p.name === name);
  if (!prompt) {
    const known = offered.map((p) => `/${server}:${p.name}`);
    return {
      error: `MCP server "${server}" has no prompt "${name}". ${known.length > 0 ? `Its prompts: ${known.join(', ')}.` : 'It offers no prompts.'}`,
    };
  }
  const filled = promptArguments(prompt, args);
  if (typeof filled === 'string') return { error: `/${server}:${name} ${filled}` };
  const got = await source.getPrompt(server, name, filled, signal);
  if ('error' in got) return got;
  return { text: promptText(got.messages) };
}

/** The MCP client behind a runtime's `mcp`, when it can run prompts (the hub; not a program's own access). */
export function promptSourceOf(mcp: unknown): PromptSource | undefined {
  const source = mcp as Partial<PromptSource> | undefined;
  return typeof source?.getPrompt === 'function' && typeof source.promptsOf === 'function'
    ? (source as PromptSource)
    : undefined;
}
