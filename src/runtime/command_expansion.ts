import { SMALL_MODEL } from '../config/agent_types/index.js';
import type { ToolName } from '../config/builtin_tool_names.js';
import { type ExpandContext, ExpandError } from '../config/commands/prompt_command.js';
import { smallModelOf } from '../provider/small_model.js';
import type { ToolResult } from '../tool/types.js';

/** What expanding a command needs of a runtime. */
export interface ExpandingRuntime {
  readonly workspace: string;
  readonly place: { readonly cwd: string };
  runTool(name: string, input: unknown): Promise<ToolResult>;
}

/**
 * The context a command expands in: `!{…}` parts run as execute_command calls of this runtime
 * (its permission rules, approvals, sandbox and output budget). A refused or failed start is an
 * `ExpandError`; a command that ran gives its output, with the exit code when it failed.
 */
export function expandContextOf(runtime: ExpandingRuntime): ExpandContext {
  return {
    cwd: runtime.place.cwd,
    workspace: runtime.workspace,
    async runShell(command) {
      const result = await runtime.runTool('execute_command' satisfies ToolName, { command });
      if (result.permissionDenial)
        throw new ExpandError(`!{${command}} was not run: ${result.permissionDenial.reason}`);
      const exitCode = (result.data as { exitCode?: number | null } | undefined)?.exitCode;
      if (exitCode === undefined)
        throw new ExpandError(`!{${command}} failed: ${result.text.split('\n')[0]}`);
      if (exitCode !== 0) return result.text;
      const output = result.text.replace(/\n\nExit code 0\.[\s\S]*$/, '');
      return output === '(no output)' ? '' : output;
    },
  };
}

/** The model a prompt runs on: the command's, else `current`; `small` is the small model of `current`'s provider (or `current`). */
export function commandModel(wanted: string | undefined, current: string | undefined): string | undefined {
  if (wanted === undefined) return current;
  if (wanted !== SMALL_MODEL) return wanted;
  return current && (smallModelOf(current) ?? current);
}
