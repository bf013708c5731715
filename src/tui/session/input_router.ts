import type { UiStore } from '../state/store.js';
import type { AgentRunner } from './agent_runner.js';
import type { CommandHost } from './command_host.js';
import type { MessageQueue } from './message_queue.js';
import { notice } from './notice.js';
import { runShellInUi, type ShellRun } from './user_shell.js';

/**
 * Where what the user types goes: a `/command` to the commands, a `!command` to the shell, a
 * prompt to the agent — or, while it works, to the queue for its next step. Esc stops both the
 * agent's step and a `!command`.
 */
export class InputRouter {
  private shell?: ShellRun;

  constructor(
    private readonly store: UiStore,
    private readonly runner: AgentRunner,
    private readonly queue: MessageQueue,
    private readonly commands: CommandHost,
    private readonly cwd: () => string,
  ) {}

  get isRunning(): boolean {
    return this.runner.isRunning || this.shell !== undefined;
  }

  async submit(text: string, shown = text): Promise<void> {
    const trimmed = text.trim();
    if (!trimmed) return;
    // A notice about what came before does not stay once the user moves on.
    if (this.store.hint) this.store.setHint(undefined);
    if (trimmed.startsWith('/') && !trimmed.startsWith('//')) {
      const { runSlashCommand } = await import('./slash_commands.js');
      return runSlashCommand(this.commands, trimmed);
    }
    if (trimmed.startsWith('!')) return this.runShell(trimmed.slice(1).trim());
    if (this.isRunning) return this.queue.push(text, shown);
    return this.runner.run(text, shown);
  }

  async runShell(command: string): Promise<void> {
    if (!command) return;
    if (this.isRunning) {
      this.store.add(
        notice('Wait for the current step to end (or press Esc) before running a command.', 'warn'),
      );
      return;
    }
    try {
      this.runner.context.push(
        await runShellInUi(this.store, command, this.cwd(), (run) => (this.shell = run)),
      );
    } finally {
      this.shell = undefined;
    }
  }

  /** Esc: stops the current step (the model request, the running tools, a `!command`). */
  interrupt(): boolean {
    const active = this.runner.interrupt() || this.shell !== undefined;
    this.shell?.kill();
    this.store.cancelPrompts();
    return active;
  }
}
