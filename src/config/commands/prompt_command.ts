/**
 * A command the user starts with `/name args` (in the UI or `lathe -p "/name args"`): a custom
 * command file, a workflow, or a skill that allows it. Expanding it gives the prompt to send.
 */
export interface PromptCommand {
  /** 'deploy', 'git:commit', 'pdf-tools' */
  name: string;
  kind: 'command' | 'workflow' | 'skill';
  description: string;
  argumentHint?: string;
  /** The file it comes from. */
  path: string;
  expand(args: string, context: ExpandContext): Promise<ExpandedPrompt>;
}

export interface ExpandContext {
  cwd: string;
  workspace: string;
  /** Runs `!{…}` parts through execute_command's machinery (sandbox, permissions). */
  runShell(command: string): Promise<string>;
}

export interface ExpandedPrompt {
  text: string;
  allowedTools?: string[];
  model?: string;
}

/** A command that cannot be expanded (a file it names cannot be read, a shell part was refused): one line saying why. */
export class ExpandError extends Error {}
