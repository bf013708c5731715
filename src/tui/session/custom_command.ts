import { ExpandError } from '../../config/commands/prompt_command.js';
import { expandContextOf } from '../../runtime/command_expansion.js';
import type { CommandHost } from './command_host.js';
import { notice } from './notice.js';

/**
 * `/name args` for a custom command or workflow: expanded (its `!{…}` parts run as commands,
 * asking as any command does) and sent as a prompt with the command's model and pre-approved
 * tools for that prompt only. False when no such command exists.
 */
export async function runCustomCommand(session: CommandHost, name: string, args: string): Promise<boolean> {
  const command = session.runtime.commands.find(name);
  if (!command) return false;
  const { store } = session;
  if (session.isRunning) {
    store.add(notice(`/${name} waits until the agent is idle (press Esc to interrupt it).`, 'error'));
    return true;
  }
  let expanded: Awaited<ReturnType<typeof command.expand>>;
  try {
    expanded = await command.expand(args, expandContextOf(session.runtime));
  } catch (error) {
    if (!(error instanceof ExpandError)) throw error;
    store.add(notice(`/${name}: ${error.message}`, 'error'));
    return true;
  }
  await session.run(expanded.text, `/${name}${args ? ` ${args}` : ''}`, {
    model: expanded.model,
    allowedTools: expanded.allowedTools,
    source: `${command.path} (allowed-tools)`,
  });
  return true;
}
