import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { processIdentity } from '../util/process_identity.js';
import { discardWorktree } from './discard.js';
import { WorktreeError } from './errors.js';
import { gitFailure } from './git.js';
import { withLock } from './lock.js';
import { branchFor, nameProblem, newWorktreeName } from './names.js';
import { lockPathIn, recordPathFor, repositoryFolder } from './places.js';
import {
  copyIncluded,
  readWorktreeSettings,
  runSetupCommands,
  type WorktreeSettings,
} from './project_files.js';
import { type WorktreeRecord, writeRecord } from './record.js';
import { branchExists, findRepository, hasChanges, type Repository, resolveBase } from './repository.js';
import type { CreateWorktreeOptions, Worktree } from './types.js';

/**
 * Makes a worktree: `git worktree add -b lathe/<name> <dir> <SHA>` with the SHA of HEAD (or of
 * `base`) resolved first, under the repository's lock so concurrent creations (of this process
 * or others) take turns; then copies the included files and runs the setup commands. Any
 * failure takes away everything made so far and throws a WorktreeError; the main checkout's
 * HEAD, index, stash and files are never touched.
 */
export async function createWorktree(options: CreateWorktreeOptions): Promise<Worktree> {
  const name = options.name ?? newWorktreeName();
  const problem = nameProblem(name);
  if (problem) throw new WorktreeError(problem);
  const repo = await findRepository(resolve(options.repo));
  const baseSha = await resolveBase(repo, options.base);
  // A malformed settings file is reported before anything is made.
  const settings = readWorktreeSettings(repo.root);
  const folder = repositoryFolder(options.documentsRoot, repo.commonDir);
  const dir = join(folder, name);
  const record: WorktreeRecord = {
    name,
    branch: branchFor(name),
    dir,
    baseSha,
    repoRoot: repo.root,
    commonDir: repo.commonDir,
    owner: processIdentity(options.owner ?? process.pid),
    created: new Date().toISOString(),
    ready: false,
    included: [],
  };

  await withLock(lockPathIn(folder), async () => {
    if (existsSync(dir) || existsSync(recordPathFor(dir)))
      throw new WorktreeError(
        `a worktree named "${name}" exists already (${dir}): choose another name, or finish or prune that one`,
      );
    if (await branchExists(repo, record.branch))
      throw new WorktreeError(
        `branch ${record.branch} exists already in ${repo.root}: choose another worktree name`,
      );
    // The record comes first: a process killed from here on leaves a leftover that prune finds.
    await writeRecord(recordPathFor(dir), record);
    const add = await repo.git.run(repo.root, [
      'worktree',
      'add',
      '--quiet',
      '-b',
      record.branch,
      dir,
      baseSha,
    ]);
    if (add.status !== 0) {
      await discardWorktree(repo.git, record);
      throw new WorktreeError(`cannot make worktree "${name}": ${gitFailure(add)}; nothing was made`);
    }
  });

  try {
    const notes = await prepare(repo, record, settings, options);
    if (await hasChanges(repo.git, repo.root))
      notes.unshift(
        `uncommitted changes in the main checkout are not in the worktree: it starts from commit ${baseSha.slice(0, 12)}`,
      );
    record.ready = true;
    await writeRecord(recordPathFor(dir), record);
    return { name, dir, branch: record.branch, baseSha, repoRoot: repo.root, notes };
  } catch (error) {
    await withLock(lockPathIn(folder), () => discardWorktree(repo.git, record));
    const why =
      error instanceof WorktreeError ? error.message : `could not prepare it: ${(error as Error).message}`;
    throw new WorktreeError(`worktree "${name}" was not made: ${why}`);
  }
}

/** Copies the included files and runs the setup commands of `.agents/worktree.json`; returns notes. */
async function prepare(
  repo: Repository,
  record: WorktreeRecord,
  settings: WorktreeSettings,
  options: CreateWorktreeOptions,
): Promise<string[]> {
  const notes: string[] = [];
  record.included = await copyIncluded(repo.git, record.repoRoot, record.dir, settings.include);
  // Recorded before the setup runs: the copies are never committed, whatever happens next.
  await writeRecord(recordPathFor(record.dir), record);
  if (record.included.length > 0)
    notes.push(`copied from the main checkout (never committed): ${record.included.join(', ')}`);
  if (settings.setup.length === 0) return notes;
  const source = settings.path ?? '.agents/worktree.json';
  if (!options.trusted) {
    notes.push(`setup commands of ${source} were not run: this folder is not trusted (see lathe trust)`);
  } else if (!options.runSetup) {
    notes.push(`setup commands of ${source} were not run: no sandbox was given to run them in`);
  } else {
    await runSetupCommands(settings.setup, record.dir, options.runSetup, source);
    notes.push(`ran the setup commands of ${source}: ${settings.setup.join('; ')}`);
  }
  return notes;
}
