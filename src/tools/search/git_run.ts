import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from '../../config/agents_md.js';
import { safeGitArgs, safeGitEnv } from '../../util/safe_git.js';
import { type StreamedRun, type StreamOptions, streamRecords } from './stream_records.js';

/** Variables that would point git at another repository, work tree or index than the folder's own. */
const LOCATION_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
];

/** git's environment for these read-only questions: the folder's own repository, no prompts, no locks. */
function gitEnv(): NodeJS.ProcessEnv {
  const env = safeGitEnv();
  for (const name of LOCATION_VARIABLES) delete env[name];
  return env;
}

/** Whether `dir` lies in a git work tree by git's own search (a `.git` above it); git confirms when asked. */
export function inGitWorkTree(dir: string): boolean {
  return repoRoot(dir) !== undefined;
}

/** Whether `dir` holds a repository of its own (a nested clone, a worktree, a checked-out submodule). */
export function holdsRepository(dir: string): boolean {
  return existsSync(join(dir, '.git'));
}

/**
 * Runs one read-only git command in `cwd` (repository programs turned off: fsmonitor, hooks,
 * pager) and hands each NUL-ended record of its output to `onRecord`.
 */
export function streamGit(
  args: readonly string[],
  cwd: string,
  signal: AbortSignal | undefined,
  onRecord: (record: string) => boolean | undefined,
  more: Pick<StreamOptions, 'input' | 'select'> = {},
): Promise<StreamedRun> {
  return streamRecords(['git', ...safeGitArgs(args)], { cwd, env: gitEnv(), signal, ...more }, onRecord);
}

/** Runs a git command and collects its NUL-ended records; undefined when git did not answer. */
export async function gitRecords(
  args: readonly string[],
  cwd: string,
  signal: AbortSignal | undefined,
  input?: string,
): Promise<string[] | undefined> {
  const records: string[] = [];
  const run = await streamGit(args, cwd, signal, (record) => void records.push(record), { input });
  return run.code === 0 ? records : undefined;
}

/** `160000 `, the mode of a gitlink, as the bytes a `--stage` record starts with. */
const GITLINK_MODE = [...Buffer.from('160000 ')];

/**
 * The gitlinks (submodules, and repositories added inside the repository) below `cwd`, relative
 * to it: `git ls-files --stage` names them by mode 160000, which a path alone does not show.
 * Only those records are decoded: the index of a large repository lists every file.
 */
export async function gitlinks(cwd: string, signal: AbortSignal | undefined): Promise<Set<string>> {
  const links = new Set<string>();
  await streamGit(
    ['ls-files', '-z', '--stage'],
    cwd,
    signal,
    (record) => void links.add(record.slice(record.indexOf('\t') + 1)),
    { select: (bytes, start) => GITLINK_MODE.every((byte, i) => bytes[start + i] === byte) },
  );
  return links;
}

/**
 * The submodules `.gitmodules` names below `root`, relative to it. (A repository added without
 * one is a gitlink too, but only `git ls-files --stage` would tell, a scan of the whole index:
 * a listing leaves it out, as git's own does.)
 */
export async function submodules(root: string, signal?: AbortSignal): Promise<string[]> {
  const top = repoRoot(root);
  if (!top || !existsSync(join(top, '.gitmodules'))) return [];
  const found = await gitRecords(
    ['config', '-z', '--file', '.gitmodules', '--get-regexp', '^submodule\\..*\\.path$'],
    top,
    signal,
  );
  const below = (found ?? []).map((entry) => relative(root, join(top, entry.slice(entry.indexOf('\n') + 1))));
  return below.filter((path) => path !== '' && !path.startsWith('..'));
}
