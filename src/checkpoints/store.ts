import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import { resolve } from 'node:path';
import { withFileLock } from '../util/file_lock.js';
import { folderBytes } from './disk_usage.js';
import { CHECKPOINT_IDENTITY, importCommit } from './fast_import.js';
import { copyFiles, type FileCopies, namesFolder, workspacePath } from './file_copies.js';
import { Housekeeping } from './housekeeping.js';
import { writeLooseCommit } from './loose_commit.js';
import { writeLooseTree } from './loose_tree.js';
import {
  type Checkpoint,
  type CheckpointMeta,
  type CheckpointScope,
  commitMessage,
  type FileRecord,
  LIST_FORMAT,
  parseListing,
  REF_PREFIX,
  refFor,
  scopeOf,
} from './records.js';
import { deletions, RefBook } from './ref_book.js';
import { switchTree, type TreeChange } from './restore.js';
import { changesAnything, overlay, planRestore, type RestorePlan } from './restore_plan.js';
import { ShadowGitError, ShadowRepo, shadowGitDir } from './shadow_repo.js';
import { SnapshotThread } from './snapshot_thread.js';
import { PRESENT_REF, type SnapshotAnswer, type SnapshotSetup } from './tree_snapshotter.js';
import type { SkippedFile } from './walk.js';

/** The snapshot thread's setup (`exclude`, `skipFolders`, `env`), less the shadow repository it finds. */
export interface CheckpointStoreOptions extends Omit<SnapshotSetup, 'gitDir'> {
  documentsRoot: string;
  /** How many checkpoints to keep, and for how long (settings `checkpoints`). */
  keep: number;
  maxAgeDays: number;
}

/** What a restore did: the checkpoint restored, the one taken of the present just before, and the change. */
export interface RestoreResult {
  target: Checkpoint;
  before: Checkpoint;
  change: TreeChange;
}

export class CheckpointError extends Error {}

type Meta = Omit<CheckpointMeta, 'at' | 'skipped' | 'skippedCount' | 'files'>;
/** The present as a restore compares it with the target: its tree, and its checkpoint once taken. */
type Present = { tree: string; skipped: SkippedFile[]; outside: string[]; checkpoint?: Checkpoint };

/** Where the tree a restore makes is written before the files are changed. */
const TARGET_REF = 'refs/lathe/target';

/**
 * The checkpoints of one workspace, in its shadow repository: snapshots of the whole tree (taken
 * by the snapshot thread, before calls that may change files no declaration names), copies of the
 * files an edit names (taken here, before the edit: they cost what the files cost), and the mark
 * of a prompt's start. Every write, restore and prune holds the repository's lock, so lathe
 * processes sharing a workspace take turns; a lock or git lock left by a killed process is taken over.
 */
export class CheckpointStore {
  readonly repo: ShadowRepo;
  private readonly thread: SnapshotThread;
  private readonly lockPath: string;
  private readonly never: string[];
  private readonly refs: RefBook;
  private readonly housekeeping: Housekeeping;
  /** The checkpoints this process took, by commit: one found again needs no listing. */
  private readonly taken = new Map<string, Checkpoint>();

  constructor(private readonly options: CheckpointStoreOptions) {
    const gitDir = shadowGitDir(options.documentsRoot, options.workspace);
    this.repo = new ShadowRepo(gitDir, options.workspace, options.env);
    this.lockPath = `${gitDir}.lock`;
    this.never = [...(options.skipFolders ?? [])];
    this.refs = new RefBook(this.repo, options);
    this.housekeeping = new Housekeeping(this.repo, (work) => this.locked(work));
    this.thread = new SnapshotThread({
      gitDir,
      workspace: options.workspace,
      exclude: options.exclude,
      skipFolders: options.skipFolders,
      env: options.env,
    });
  }

  /**
   * A snapshot of the whole tree as it is now, taken off this thread. Unless `always`, a tree the
   * newest checkpoint already holds makes none, and that one is returned.
   */
  take(meta: Meta, options: { always?: boolean } = {}): Promise<Checkpoint> {
    return this.locked(async () => {
      const at = Date.now();
      const ref = refFor(at, unique(), 'tree');
      const stale = await this.refs.stale(1);
      const answer = await this.thread.snapshot({ ref, at, meta, deleteRefs: stale, always: options.always });
      if (answer.reused) {
        const known = this.taken.get(answer.commit) ?? (await this.list()).at(-1);
        if (known) return known;
      }
      return this.recorded(withSkipped({ ...meta, at }, answer.skipped), answer, ref, stale);
    });
  }

  /**
   * A checkpoint of the files at `paths` alone (absolute, or relative to the workspace), as they
   * are now: taken before an edit that names them. Files outside the workspace are not held;
   * undefined when none is inside it (nothing to take back).
   */
  saveFiles(meta: Meta, paths: readonly string[]): Promise<Checkpoint | undefined> {
    const files = this.inside(paths);
    if (files.length === 0) return Promise.resolve(undefined);
    return this.locked(async () =>
      this.commitCopies(meta, copyFiles(this.repo.gitDir, this.options.workspace, files)),
    );
  }

  /** Whether a path is a folder now: its files are not named, so only a snapshot of the tree holds them. */
  namesFolder(paths: readonly string[]): boolean {
    return namesFolder(this.options.workspace, this.inside(paths));
  }

  /** The paths inside the workspace, relative with `/`, once each. */
  private inside(paths: readonly string[]): string[] {
    const root = this.options.workspace;
    const named = paths.map((p) => workspacePath(root, resolve(root, p), this.never));
    return [...new Set(named.filter((p): p is string => p !== undefined))];
  }

  /** A checkpoint of no file: where a prompt began (a restore to it undoes what came after). */
  mark(meta: Meta): Promise<Checkpoint> {
    return this.locked(async () =>
      this.commitCopies(meta, copyFiles(this.repo.gitDir, this.options.workspace, [])),
    );
  }

  /** Every checkpoint, oldest first. */
  async list(): Promise<Checkpoint[]> {
    if (!this.repo.exists) return [];
    const listed = await this.repo.git(['for-each-ref', `--format=${LIST_FORMAT}`, REF_PREFIX]);
    return parseListing(listed.stdout);
  }

  /** The checkpoint an id (or a unique start of one) names. */
  async find(id: string): Promise<Checkpoint> {
    const wanted = id.trim().toLowerCase();
    if (!/^[0-9a-f]{4,40}$/.test(wanted))
      throw new CheckpointError(`"${id}" is not a checkpoint id (lathe checkpoints list shows them)`);
    const matches = (await this.list()).filter((c) => c.commit.startsWith(wanted));
    if (matches.length === 0)
      throw new CheckpointError(`no checkpoint ${id} in this workspace (lathe checkpoints list shows them)`);
    if (matches.length > 1)
      throw new CheckpointError(`${id} names ${matches.length} checkpoints: give more of it`);
    return matches[0];
  }

  /**
   * Makes the workspace as it was at a checkpoint: what calls changed since (edits from the files
   * they saved, commands from the tree snapshots) comes back, files created since are removed,
   * with their modes. The present is checkpointed first, so the restore itself can be taken back.
   */
  restore(target: Checkpoint, session?: string): Promise<RestoreResult> {
    return this.locked(async () => {
      const all = await this.list();
      const from = all.findIndex((c) => c.commit === target.commit);
      if (from < 0) throw new CheckpointError(`checkpoint ${target.id} is gone (pruned since)`);
      const result = await this.switchTo(all[from], planRestore(all, from), session, false);
      if (!result) throw new CheckpointError(`checkpoint ${target.id} could not be restored`);
      return result;
    });
  }

  /**
   * `/undo`: back to the newest checkpoint taken before a prompt whose files differ from the
   * present; right after a restore, from the checkpoint it restored on, so a second /undo goes
   * one prompt further back. Undefined when there is none.
   */
  undo(session?: string): Promise<RestoreResult | undefined> {
    return this.locked(async () => {
      const all = await this.list();
      const last = all.at(-1);
      const restored = last?.kind === 'restore' ? all.findIndex((c) => c.commit === last.restored) : -1;
      for (let i = (restored >= 0 ? restored : all.length) - 1; i >= 0; i--) {
        if (all[i].kind !== 'turn') continue;
        const plan = planRestore(all, i);
        if (!changesAnything(plan)) continue;
        const result = await this.switchTo(all[i], plan, session, true);
        if (result) return result;
      }
      return undefined;
    });
  }

  /**
   * Checkpoints the present, then turns the files into `target`'s; with `onlyIfChanged`, does
   * nothing (undefined) when they are the same already.
   */
  private async switchTo(
    target: Checkpoint,
    plan: RestorePlan,
    session: string | undefined,
    onlyIfChanged: boolean,
  ): Promise<RestoreResult | undefined> {
    const meta: Meta = {
      kind: 'restore',
      label: `before restoring ${target.id}`,
      session,
      restored: target.commit,
    };
    const present = await this.present(plan, onlyIfChanged ? undefined : meta);
    const laid = overlay(plan, new Set(present.outside));
    const to = plan.base ? await this.laidOver(plan.base.tree, laid) : treeOfRecords(this.repo.gitDir, laid);
    if (onlyIfChanged && to === present.tree) return undefined;
    const before = present.checkpoint ?? (await this.present(plan, meta)).checkpoint;
    if (!before) throw new CheckpointError('the present could not be checkpointed');
    const keep = new Set(before.skipped?.map((s) => s.path));
    const { change } = await switchTree(this.repo, before.tree, to, keep);
    return { target, before, change };
  }

  /**
   * The files a restore may change, as they are now: the whole tree when the plan has a tree
   * snapshot (with the files saved one by one that its walk leaves out), else the saved files
   * alone. A checkpoint of them with `meta`.
   */
  private async present(plan: RestorePlan, meta?: Meta): Promise<Present> {
    const paths = [...plan.copies.keys()];
    if (!plan.base) {
      const copies = copyFiles(this.repo.gitDir, this.options.workspace, paths);
      const checkpoint = meta && (await this.commitCopies(meta, copies));
      return { tree: copies.tree, skipped: copies.skipped, outside: [], checkpoint };
    }
    if (!meta) {
      const answer = await this.thread.snapshot({
        ref: PRESENT_REF,
        at: Date.now(),
        include: paths,
        always: true,
      });
      return { ...answer };
    }
    const at = Date.now();
    const ref = refFor(at, unique(), 'tree');
    const stale = await this.refs.stale(1);
    const answer = await this.thread.snapshot({
      ref,
      at,
      meta,
      deleteRefs: stale,
      always: true,
      include: paths,
    });
    const checkpoint = this.recorded(withSkipped({ ...meta, at }, answer.skipped), answer, ref, stale);
    return { ...answer, checkpoint };
  }

  /** The tree `base` with the saved files laid over it (one `git fast-import`; none when there are none). */
  private async laidOver(base: string, laid: ReadonlyMap<string, FileRecord | null>): Promise<string> {
    if (laid.size === 0) return base;
    const changes = [...laid].flatMap(([path, r]) => (r ? [{ path, mode: r[0], sha: r[1] }] : []));
    const removed = [...laid].filter(([, r]) => !r).map(([path]) => path);
    const message = 'the tree a restore makes\n';
    return (
      await importCommit(this.repo, { base, changes, removed, ref: TARGET_REF, message, at: Date.now() })
    ).tree;
  }

  /** A checkpoint of files copied one by one: a loose commit, no git process unless refs are pruned. */
  private async commitCopies(meta: Meta, copies: FileCopies): Promise<Checkpoint> {
    const at = Date.now();
    const ref = refFor(at, unique(), 'files');
    const stale = await this.refs.stale(1);
    const full = withSkipped({ ...meta, at, files: copies.files }, copies.skipped);
    const message = commitMessage(full);
    const commit = writeLooseCommit(this.repo.gitDir, {
      tree: copies.tree,
      ref,
      message,
      at,
      identity: CHECKPOINT_IDENTITY,
    });
    if (stale.length > 0) await this.repo.git(['update-ref', '--stdin'], { input: deletions(stale) });
    return this.recorded(full, { commit, tree: copies.tree }, ref, stale);
  }

  /** A checkpoint just written: remembered, with the refs as they now are; old ones pruned later. */
  private recorded(
    meta: CheckpointMeta,
    written: Pick<SnapshotAnswer, 'commit' | 'tree'>,
    ref: string,
    stale: readonly string[],
  ): Checkpoint {
    const { commit, tree } = written;
    const scope: CheckpointScope = scopeOf(ref);
    const checkpoint: Checkpoint = { ...meta, id: commit.slice(0, 8), commit, tree, ref, scope };
    this.taken.set(commit, checkpoint);
    this.refs.wrote(ref, stale);
    this.housekeeping.afterWrite(stale.length > 0);
    return checkpoint;
  }

  /** Bytes the shadow repository takes on disk. */
  async diskUsage(): Promise<number> {
    return folderBytes(this.repo.gitDir);
  }

  /**
   * Removes checkpoints beyond `keep` and older than `maxAgeDays` (all of them with `all`), then
   * lets git drop what no checkpoint holds any more.
   */
  async prune(options: { all?: boolean } = {}): Promise<{ removed: number }> {
    if (!this.repo.exists) return { removed: 0 };
    if (options.all) {
      return this.locked(async () => {
        const removed = (await this.refs.names()).length;
        await fs.rm(this.repo.gitDir, { recursive: true, force: true });
        await this.thread.close();
        this.taken.clear();
        this.refs.forget();
        return { removed };
      });
    }
    const removed = await this.locked(async () => {
      const stale = await this.refs.stale(0);
      if (stale.length > 0) await this.repo.git(['update-ref', '--stdin'], { input: deletions(stale) });
      return stale.length;
    });
    await this.gc();
    return { removed };
  }

  /** git gc of the shadow repository, holding its lock (a snapshot meanwhile waits). */
  gc(): Promise<void> {
    return this.housekeeping.gc();
  }

  /** Ends the snapshot thread, if one was started. */
  close(): Promise<void> {
    return this.thread.close();
  }

  private locked<T>(work: () => Promise<T>): Promise<T> {
    return withFileLock(
      this.lockPath,
      async () => {
        this.repo.ensure();
        this.repo.clearStaleLocks();
        return work();
      },
      {
        busy: (pid) =>
          new CheckpointError(
            `another lathe process (pid ${pid ?? 'unknown'}) holds the checkpoint lock ${this.lockPath}`,
          ),
      },
    );
  }
}

const unique = () => randomBytes(3).toString('hex');

/** The metadata with the files left out: all counted, at most some named (see `commitMessage`). */
function withSkipped<M extends Omit<CheckpointMeta, 'skipped' | 'skippedCount'>>(
  meta: M,
  skipped: SkippedFile[],
): M & CheckpointMeta {
  return { ...meta, skipped, skippedCount: skipped.length };
}

/** The tree of the saved files that were there (no base: the files of the present alone). */
function treeOfRecords(gitDir: string, records: ReadonlyMap<string, FileRecord | null>): string {
  const files = new Map<string, { mode: FileRecord[0]; sha: string }>();
  for (const [path, record] of records) if (record) files.set(path, { mode: record[0], sha: record[1] });
  return writeLooseTree(gitDir, files);
}

export { ShadowGitError };
