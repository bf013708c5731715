export interface PromptCommand {
  name: string; // 'deploy', 'git:commit', 'pdf-tools'
  kind: 'command' | 'workflow' | 'skill';
  description: string;
  argumentHint?: string;
  path: string; // the file it comes from
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
