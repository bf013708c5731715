import { join } from 'node:path';
import { holdsRepository, streamGit, submodules } from './git_run.js';

/** What git answered for one repository: whether it could, and the repositories nested in it. */
export interface GitListing {
  answered: boolean;
  /** Folders (relative, no trailing `/`) holding a repository of their own, which git does not enter. */
  nested: string[];
}

/**
 * git's own listing of `root` (inside a work tree): tracked files and untracked ones, less those
 * its ignore rules exclude unless `includeIgnored` (every .gitignore, .git/info/exclude,
 * core.excludesFile; a tracked file is listed whatever the rules say). Each path, relative to
 * `root`, goes to `onFile`; a tracked file deleted from the disk is listed too (callers that stat
 * drop it). `pathspecs` narrow the walk (a superset of what the caller keeps).
 */
export async function listGitFiles(
  root: string,
  options: { includeIgnored: boolean; pathspecs?: readonly string[]; signal?: AbortSignal },
  onFile: (path: string) => void,
): Promise<GitListing> {
  const args = ['ls-files', '-z', '--cached', '--others'];
  if (!options.includeIgnored) args.push('--exclude-standard');
  // `*/` matches nothing but the entries git shows for nested repositories (`vendor/lib/`).
  if (options.pathspecs) args.push('--', ...options.pathspecs, '*/');
  const nested = new Set(await submodules(root, options.signal));
  let emitted = false;
  const run = await streamGit(args, root, options.signal, (record) => {
    if (record.endsWith('/')) nested.add(record.slice(0, -1));
    else if (!nested.has(record)) {
      emitted = true;
      onFile(record);
    }
    return undefined;
  });
  const answered = run.code === 0 || emitted;
  const repositories = [...nested].filter((dir) => holdsRepository(join(root, dir)));
  return { answered, nested: answered ? repositories : [] };
}
