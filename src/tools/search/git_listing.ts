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
  const others = ['ls-files', '-z', '--others'];
  if (!options.includeIgnored) others.push('--exclude-standard');
  const cached = ['ls-files', '-z', '--cached'];
  if (options.pathspecs) {
    cached.push('--', ...options.pathspecs);
    // `*/` matches nothing but the entries git shows for nested repositories (`vendor/lib/`).
    others.push('--', ...options.pathspecs, '*/');
  }
  const nested = new Set(await submodules(root, options.signal));
  let emitted = false;
  const onRecord = (record: string) => {
    if (record.endsWith('/')) nested.add(record.slice(0, -1));
    else if (nested.size === 0 || !nested.has(record)) {
      emitted = true;
      onFile(record);
    }
    return undefined;
  };
  // Two processes at once: the index's files are handled while the other one walks the folders
  // for untracked files (git prints those only once its walk is done). A name only `others`
  // shows (`dir/`) never names a file `cached` lists, so the order of their records is free.
  const runs = await Promise.all([
    streamGit(cached, root, options.signal, onRecord),
    streamGit(others, root, options.signal, onRecord),
  ]);
  const answered = runs.every((run) => run.code === 0) || emitted;
  const repositories = [...nested].filter((dir) => holdsRepository(join(root, dir)));
  return { answered, nested: answered ? repositories : [] };
}
