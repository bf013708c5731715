import { realpathSync } from 'node:fs';
import { sep } from 'node:path';
import type { ToolName } from '../../config/builtin_tool_names.js';
import type { ToolContext } from '../../tool/types.js';
import { absolutePath } from './paths.js';

/**
 * validateInput for the tools that walk folders (list_files, glob, search_files): a path inside a
 * `.git` folder — by its real path, so a link to one counts — is refused. What git keeps there
 * (its config, hooks, objects) is for git commands to show, not a search.
 */
export function gitFolderProblem(
  ctx: Pick<ToolContext, 'cwd'>,
  path: string | undefined,
  tool: ToolName,
): string | undefined {
  const absolute = absolutePath(ctx, path ?? '.');
  let real = absolute;
  try {
    real = realpathSync(absolute);
  } catch {
    // missing: the tool's own check says so
  }
  if (!real.split(sep).includes('.git') && !absolute.split(sep).includes('.git')) return undefined;
  return `${path ?? '.'} is inside a .git folder (git's own data): ${tool} does not look there. Use git commands through execute_command.`;
}
