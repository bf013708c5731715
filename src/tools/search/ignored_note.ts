import type { ToolContext } from '../../tool/types.js';
import { displayPath } from '../shared/paths.js';
import { gitIgnoresFolder } from './git_ignored.js';

/** The `include_ignored` option of list_files, glob and search_files, described once. */
export const INCLUDE_IGNORED_HELP = 'Include git-ignored files';

/**
 * What an empty result adds when ignore rules were applied: that the folder itself is ignored
 * (everything in it is), or that ignored files were left out.
 */
export async function ignoredFolderNote(
  folder: string,
  ctx: Pick<ToolContext, 'workspace' | 'signal'>,
): Promise<string> {
  if (await gitIgnoresFolder(folder, ctx.signal)) {
    return ` ${displayPath(ctx, folder)} is ignored by git: include_ignored: true looks inside it.`;
  }
  return ' Ignored files are left out (include_ignored: true shows them).';
}
