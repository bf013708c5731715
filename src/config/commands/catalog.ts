import { existsSync } from 'node:fs';
import type { PromptCommand } from './prompt_command.js';
import type { CommandDiscovery, Workflow, WorkflowScript } from './types.js';

/** `/name args` as typed: the name and the rest. */
export interface Invocation {
  name: string;
  args: string;
}

const INVOCATION = /^\/([a-z0-9:_-]+)(?:\s+([\s\S]*))?$/;

/**
 * The command a prompt starts, if it starts one: `/word` where the word is a command name and
 * no file of that path exists, so `/tmp is full` or `/usr/bin/x is broken` stay prompts.
 */
export function parseInvocation(prompt: string): Invocation | undefined {
  const match = INVOCATION.exec(prompt.trim());
  if (!match || existsSync(`/${match[1]}`)) return undefined;
  return { name: match[1], args: (match[2] ?? '').trim() };
}

/**
 * The `/name` commands of a session: custom command files and workflows as found, then commands
 * from elsewhere (skills) whose names are still free. Workflows and their scripts are also
 * what load_workflow and run_workflow reach.
 */
export class CommandCatalog {
  private readonly commands: PromptCommand[];
  /** Lines about commands from elsewhere that a found one's name hides. */
  readonly warnings: string[] = [];

  constructor(
    private readonly found: CommandDiscovery,
    extra: readonly PromptCommand[] = [],
  ) {
    this.commands = [...found.commands];
    for (const command of extra) {
      const winner = this.find(command.name);
      if (winner)
        this.warnings.push(`${command.path}: "/${command.name}" is also ${winner.path}, which wins`);
      else this.commands.push(command);
    }
  }

  list(): readonly PromptCommand[] {
    return this.commands;
  }

  names(): string[] {
    return this.commands.map((command) => command.name);
  }

  find(name: string): PromptCommand | undefined {
    return this.commands.find((command) => command.name === name);
  }

  get workflows(): readonly Workflow[] {
    return this.found.workflows;
  }

  get scripts(): readonly WorkflowScript[] {
    return this.found.scripts;
  }

  /** Lines for commands whose names built-in commands take (the built-in wins). */
  shadowedBy(builtIns: readonly string[]): string[] {
    return this.commands
      .filter((command) => builtIns.includes(command.name))
      .map(
        (command) => `${command.path}: /${command.name} is a built-in command, which wins: rename this one`,
      );
  }
}
