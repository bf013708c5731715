import { expandServerPrompt, promptSourceOf, serverPromptInvocation } from '../../mcp/prompt_command.js';
import type { CommandHost } from './command_host.js';
import { notice } from './notice.js';

/**
 * `/server:prompt args` for a prompt an MCP server offers: its messages, the arguments filled in,
 * are sent as the prompt. False when the line names no configured server.
 */
export async function runServerPrompt(session: CommandHost, line: string): Promise<boolean> {
  const source = promptSourceOf(session.runtime.mcp);
  const invocation = source && serverPromptInvocation(line, source);
  if (!source || !invocation) return false;
  const { store } = session;
  const shown = line.trim();
  if (session.isRunning) {
    store.add(
      notice(`${shown.split(/\s/)[0]} waits until the agent is idle (press Esc to interrupt it).`, 'error'),
    );
    return true;
  }
  const expanded = await expandServerPrompt(source, invocation, new AbortController().signal);
  if ('error' in expanded) {
    store.add(notice(expanded.error, 'error'));
    return true;
  }
  await session.run(expanded.text, shown);
  return true;
}
