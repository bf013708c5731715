import { basename, join } from 'node:path';
import type { FolderCheck } from '../../edit/atomic_write.js';
import { isInside, protectedReason, realPathOf } from '../../permission/paths.js';
import type { ToolContext } from '../../tool/types.js';
import { displayPath } from '../shared/paths.js';

/**
 * What the edit tools require of the folder a write lands in, checked on the opened folder right
 * before the write: a path named inside the workspace stays inside it, and a write does not land
 * on a protected path (.git/, .agents/, …) unless the path was protected when the call began
 * (and so was asked about). A symlink swapped into the path after the permission check
 * therefore cannot carry the write elsewhere.
 */
export function editFolderCheck(
  ctx: Pick<ToolContext, 'workspace' | 'documentsRoot'>,
  absolute: string,
): FolderCheck {
  const workspaceReal = realPathOf(ctx.workspace);
  const documentsReal = realPathOf(ctx.documentsRoot);
  const named = isInside(absolute, ctx.workspace) || isInside(absolute, workspaceReal);
  const protectedAtStart = protectedReason(realPathOf(absolute), workspaceReal, documentsReal) !== undefined;
  const shown = displayPath(ctx, absolute);
  return (realFolder) => {
    if (named && !isInside(realFolder, workspaceReal)) {
      return (
        `${shown} leads outside the workspace (to ${realFolder}, through a symlink); nothing was written. ` +
        'To change a file there, name its real path.'
      );
    }
    const reason = protectedReason(join(realFolder, basename(absolute)), workspaceReal, documentsReal);
    if (reason !== undefined && !protectedAtStart) {
      return `${shown} now leads to ${reason} (a symlink changed since the permission check); nothing was written.`;
    }
    return undefined;
  };
}
