import { existsSync, realpathSync } from 'node:fs';
import { runGit } from '../../util/safe_git.js';
import { BRANCH_PREFIX, listWorktrees } from '../../worktree/index.js';

const GIT_TIMEOUT_MS = 30_000;

/** What a pull request from a branch would hold: its base, commits, diffstat, and the worktree it came from. */
export interface BranchFacts {
  branch: string;
  /** The branch the PR goes into: the main checkout's. */
  base: string;
  /** The commit the branch is compared from (its worktree's start, else the merge base). */
  baseSha: string;
  commits: string[];
  diffstat: string;
  /** The lathe worktree of the branch, when it still has a folder. */
  worktree?: { name: string; dir: string; uncommitted: number };
  /** The remote to push to (origin when there is one) and its GitHub `owner/name`, when it is on GitHub. */
  remote?: { name: string; url: string; github?: string };
}

async function git(cwd: string, args: string[]): Promise<{ ok: boolean; out: string; err: string }> {
  const run = await runGit(args, { cwd, timeoutMs: GIT_TIMEOUT_MS });
  if (run.error?.code === 'ENOENT') throw new Error('git is not on PATH');
  return {
    ok: run.status === 0,
    out: run.stdout.replace(/\s+$/, ''),
    err: run.stderr.trim().split('\n')[0] ?? '',
  };
}

const realpath = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

/** `owner/name` of a GitHub remote URL (https or ssh), else undefined. */
export function githubSlug(url: string): string | undefined {
  return /github\.com[:/]([^/\s]+\/[^/\s]+?)(?:\.git)?\/?$/.exec(url)?.[1];
}

/** The branch as named, or lathe's worktree branch of that name (`wt-1` → `lathe/wt-1`). */
async function resolveBranch(repo: string, name: string): Promise<string | undefined> {
  const plain = name.replace(/^refs\/heads\//, '');
  for (const candidate of [plain, `${BRANCH_PREFIX}${plain}`]) {
    if (candidate.startsWith('-')) continue;
    const found = await git(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${candidate}^{commit}`]);
    if (found.ok) return candidate;
  }
  return undefined;
}

/** The facts of `name`'s branch in the repository at `repo`, or an Error the model can act on. */
export async function branchFacts(repo: string, name: string, documentsRoot: string): Promise<BranchFacts> {
  const top = await git(repo, ['rev-parse', '--show-toplevel']);
  if (!top.ok) throw new Error(`${repo} is not in a git repository`);
  const branch = await resolveBranch(repo, name);
  if (!branch) {
    const ours = await git(repo, [
      'for-each-ref',
      '--format=%(refname:short)',
      `refs/heads/${BRANCH_PREFIX}`,
    ]);
    const list = ours.out ? ` Branches of lathe's worktrees: ${ours.out.split('\n').join(', ')}.` : '';
    throw new Error(`There is no branch "${name}" in ${top.out}.${list}`);
  }
  const head = await git(repo, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  if (!head.ok)
    throw new Error(
      `The main checkout ${top.out} is on a detached HEAD: check out the branch the PR should go into`,
    );
  const base = head.out;
  if (base === branch)
    throw new Error(
      `${branch} is the branch checked out in ${top.out}: name the branch of the background work`,
    );
  const record = (await listWorktrees({ documentsRoot })).find(
    (w) => w.branch === branch && realpath(w.repoRoot) === realpath(top.out),
  );
  const merge = await git(repo, ['merge-base', base, branch]);
  const baseSha = record?.baseSha ?? (merge.ok ? merge.out : '');
  if (!baseSha) throw new Error(`${branch} and ${base} share no history: there is nothing to compare`);
  const log = await git(repo, ['log', '--format=%h %s', `${baseSha}..${branch}`]);
  const commits = log.out ? log.out.split('\n') : [];
  const stat = await git(repo, ['diff', '--stat', baseSha, branch]);
  let worktree: BranchFacts['worktree'];
  if (record && existsSync(record.dir)) {
    const status = await git(record.dir, ['status', '--porcelain=v1', '--untracked-files=normal']);
    const uncommitted = status.ok ? status.out.split('\n').filter(Boolean).length : 0;
    worktree = { name: record.name, dir: record.dir, uncommitted };
  }
  const remotes = (await git(repo, ['remote'])).out.split('\n').filter(Boolean);
  const remoteName = remotes.includes('origin') ? 'origin' : remotes[0];
  let remote: BranchFacts['remote'];
  if (remoteName) {
    const url = (await git(repo, ['remote', 'get-url', remoteName])).out;
    remote = { name: remoteName, url, github: githubSlug(url) };
  }
  return { branch, base, baseSha, commits, diffstat: stat.out, worktree, remote };
}
