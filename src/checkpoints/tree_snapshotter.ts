import { byCodeUnits } from '../util/code_unit_order.js';
import {
  CHECKPOINT_IDENTITY,
  type FileEntry,
  type ImportRequest,
  type ImportResult,
  importCommit,
} from './fast_import.js';
import { FileStatter } from './file_stats.js';
import { IndexedStatter, statIndexFile } from './indexed_stats.js';
import { EMPTY_TREE, writeLooseCommit } from './loose_commit.js';
import { type CheckpointMeta, commitMessage, REF_PREFIX, scopeOf } from './records.js';
import { type CheckpointRefs, readCheckpointRefs, readLooseRef } from './refs_on_disk.js';
import { ShadowRepo } from './shadow_repo.js';
import { isClean, readTree, scanWorkspace, type TreeMemory, type WorkspaceScan } from './snapshot.js';
import { addCachedStats, readSavedFiles, type SavedFiles, savedTree, saveFiles } from './stat_cache.js';
import { type SkippedFile, WorkspaceWalker } from './walk.js';

/** What a snapshot thread is made for: one workspace and its shadow repository. */
export interface SnapshotSetup {
  gitDir: string;
  workspace: string;
  /** Patterns in .gitignore form left out (`checkpoints.exclude`). */
  exclude?: readonly string[];
  /** Absolute folders never walked (lathe's home and session folder when they lie inside). */
  skipFolders?: readonly string[];
  env?: NodeJS.ProcessEnv;
  /** Where the thread writes its index of the files' stats (the thread's owner removes it). */
  indexFile?: string;
  /** Files from which git compares their stats (INDEXED_FROM unless set). */
  indexedFrom?: number;
  /** Snapshots taken before the index is first written (INDEX_AFTER unless set). */
  indexAfter?: number;
}

/** One snapshot of the whole tree, written as a commit under `ref` (the caller holds the lock). */
export interface SnapshotRequest {
  ref: string;
  at: number;
  /** The checkpoint's metadata (the files left out are added here); none for the present alone. */
  meta?: Omit<CheckpointMeta, 'at' | 'skipped' | 'skippedCount'>;
  /** Refs pruned in the same write. */
  deleteRefs?: readonly string[];
  /** Unless set, a tree the newest checkpoint already holds is not written again. */
  always?: boolean;
  /** Files a restore may change: those the walk does not cover are held too, as they are now. */
  include?: readonly string[];
}

export interface SnapshotAnswer {
  commit: string;
  tree: string;
  skipped: SkippedFile[];
  /** The newest checkpoint (`commit`) holds the tree already: nothing was written. */
  reused: boolean;
  /** Of `include`, the files the walk does not cover (ignored, excluded). */
  outside: string[];
}

/** Where the tree of the present goes when no checkpoint is made of it (a restore compares with it). */
export const PRESENT_REF = 'refs/lathe/present';
/** Files read in one scan past which their stats are saved for the next process. */
const STATS_WORTH_SAVING = 200;
/** Files a workspace may hold for them all to be saved after every checkpoint (a quick write). */
const SAVED_IN_FULL = 5_000;

type Memory = TreeMemory & { commit?: string };
type WriteTarget = Pick<ImportRequest, 'ref' | 'message' | 'at' | 'deleteRefs'>;

/**
 * Snapshots of a workspace's whole tree, as the snapshot thread takes them: it remembers the
 * tree last written and its files' stats, so a file is read again only when its stats changed,
 * and an unchanged workspace costs one walk and one lstat per file, and no git process.
 */
export class TreeSnapshotter {
  private readonly repo: ShadowRepo;
  private readonly walker: WorkspaceWalker;
  /** lstat of the workspace's files, with a helper thread on a large one. */
  private readonly lstat = new FileStatter();
  /** The stats of the workspace's files: compared by git on a large one, once it has an index. */
  private readonly statter: IndexedStatter;
  private memory?: Memory;
  /** The saved files once read: null when there were none. */
  private savedFiles?: SavedFiles | null;
  /** Stats a scan learnt by reading many files, saved when the snapshot ends unless a checkpoint's save took them. */
  private unsavedStats?: ReadonlyMap<string, FileEntry>;

  constructor(private readonly setup: SnapshotSetup) {
    this.repo = new ShadowRepo(setup.gitDir, setup.workspace, setup.env);
    const indexFile = setup.indexFile ?? statIndexFile(setup.gitDir);
    this.statter = new IndexedStatter(this.repo, this.lstat, indexFile, setup.indexedFrom, setup.indexAfter);
    this.walker = new WorkspaceWalker(setup.workspace, {
      exclude: setup.exclude,
      skipFolders: setup.skipFolders,
    });
  }

  async snapshot(request: SnapshotRequest): Promise<SnapshotAnswer> {
    try {
      return await this.take(request);
    } finally {
      if (this.unsavedStats) this.save(this.unsavedStats);
    }
  }

  private async take(request: SnapshotRequest): Promise<SnapshotAnswer> {
    const refs = await this.refs();
    const outside = (request.include ?? []).filter((path) => !this.walker.covers(path));
    const scan = await this.scan(refs, outside);
    const newest = refs.refs.at(-1);
    const newestCommit = newest && scopeOf(newest) === 'tree' ? refs.commits.get(newest) : undefined;
    if (
      !request.always &&
      request.meta &&
      isClean(scan) &&
      newestCommit &&
      newestCommit === this.memory?.commit
    )
      return {
        commit: newestCommit,
        tree: scan.base.tree ?? '',
        skipped: scan.skipped,
        reused: true,
        outside,
      };
    const { meta, at } = request;
    const message = meta
      ? commitMessage({ ...meta, at, skipped: scan.skipped, skippedCount: scan.skipped.length })
      : 'the present\n';
    const target = { ref: request.ref, message, at, deleteRefs: request.deleteRefs };
    const written = await this.write(scan, target, refs);
    const { commit, tree } = written;
    // The next process then learns the newest tree and its files without git.
    const files = this.memory?.files;
    if (meta && files && (files.size <= SAVED_IN_FULL || scan.read > STATS_WORTH_SAVING))
      this.save(files, { commit, tree });
    return { commit, tree, skipped: [...scan.skipped, ...written.skipped], reused: false, outside };
  }

  /** The workspace as it is now against the tree last written. */
  private async scan(refs: CheckpointRefs, extra: readonly string[]): Promise<WorkspaceScan> {
    this.memory ??= await this.newestTree(refs);
    const memory = this.memory;
    const scan = await scanWorkspace(this.setup.workspace, this.walker, memory, this.statter, extra);
    // The same tree, with the stats of the files read since.
    if (isClean(scan)) this.memory = { ...memory, files: scan.files };
    // Many files read: keep their stats for the next process (a few are not worth the write).
    if (scan.read > STATS_WORTH_SAVING) this.unsavedStats = scan.files;
    return scan;
  }

  /**
   * A new thread: the newest tree snapshot's files as the last process saved them, or as git
   * lists them (then each file is read once to learn its stats).
   */
  private async newestTree(refs: CheckpointRefs & { trees?: Map<string, string> }): Promise<Memory> {
    const ref = refs.refs.filter((r) => scopeOf(r) === 'tree').at(-1);
    const commit = ref && refs.commits.get(ref);
    const saved = this.saved();
    let memory: Memory | undefined;
    if (commit && saved?.commit === commit && saved.tree) memory = savedTree(saved, saved.tree);
    if (!memory && ref) {
      const tree = refs.trees?.get(ref) ?? (await this.listRefs()).trees.get(ref);
      if (tree) memory = await readTree(this.repo, tree);
    }
    memory ??= { files: new Map() };
    addCachedStats(saved, memory);
    return { ...memory, commit: memory.tree ? commit : undefined };
  }

  /** The checkpoint refs, from disk, or from git when they are not as expected there. */
  private async refs(): Promise<CheckpointRefs & { trees?: Map<string, string> }> {
    return readCheckpointRefs(this.repo.gitDir) ?? (await this.listRefs());
  }

  private async listRefs(): Promise<CheckpointRefs & { trees: Map<string, string> }> {
    const listed = await this.repo.git([
      'for-each-ref',
      '--format=%(refname) %(objectname) %(tree)',
      REF_PREFIX,
    ]);
    const commits = new Map<string, string>();
    const trees = new Map<string, string>();
    for (const line of listed.stdout.split('\n').filter(Boolean)) {
      const [ref, commit, tree] = line.split(' ');
      commits.set(ref, commit);
      trees.set(ref, tree);
    }
    return { refs: [...commits.keys()].sort(byCodeUnits), commits, trees };
  }

  /**
   * Writes the scan's tree and a commit of it under `target.ref`: with no git process when the
   * tree is one the repository holds, else with one `git fast-import`. When the base tree is gone
   * (pruned by another process), every file is written anew.
   */
  private async write(scan: WorkspaceScan, target: WriteTarget, refs: CheckpointRefs): Promise<ImportResult> {
    const request = (s: WorkspaceScan): ImportRequest => ({
      base: s.base.tree,
      changes: s.changes,
      removed: s.removed,
      ...target,
    });
    let result: ImportResult;
    try {
      result = this.writeUnchanged(scan, target, refs) ?? (await importCommit(this.repo, request(scan)));
    } catch (error) {
      if (!scan.base.tree) throw error;
      this.memory = { files: new Map() };
      scan = await scanWorkspace(this.setup.workspace, this.walker, this.memory, this.statter);
      result = await importCommit(this.repo, request(scan));
    }
    // A scan that found changes made its own map of the files: it is taken over, not copied.
    const files = scan.files === scan.base.files ? new Map(scan.files) : scan.files;
    for (const [path, entry] of result.written) files.set(path, entry);
    for (const { path } of result.skipped) {
      const known = scan.base.files.get(path);
      if (known) files.set(path, known);
      else files.delete(path);
    }
    this.memory = { tree: result.tree, files, commit: result.commit };
    return result;
  }

  /**
   * A commit of a tree a ref still holds (the scan found no change) or of no file at all, with
   * no ref to prune: written without git. Undefined when git must write it, or when it could not
   * be written so (a ref's lock left behind).
   */
  private writeUnchanged(
    scan: WorkspaceScan,
    target: WriteTarget,
    refs: CheckpointRefs,
  ): ImportResult | undefined {
    if (target.deleteRefs?.length) return undefined;
    const held = (commit?: string) =>
      commit !== undefined &&
      ([...refs.commits.values()].includes(commit) || readLooseRef(this.repo.gitDir, PRESENT_REF) === commit);
    const tree =
      scan.files.size === 0
        ? EMPTY_TREE
        : isClean(scan) && held(this.memory?.commit)
          ? scan.base.tree
          : undefined;
    if (!tree) return undefined;
    try {
      const commit = writeLooseCommit(this.repo.gitDir, { ...target, tree, identity: CHECKPOINT_IDENTITY });
      return { commit, tree, written: new Map(), skipped: [] };
    } catch {
      return undefined;
    }
  }

  /** The files saved by the last process to save them (read once until this one saves). */
  private saved(): SavedFiles | undefined {
    if (this.savedFiles === undefined) this.savedFiles = readSavedFiles(this.repo.gitDir) ?? null;
    return this.savedFiles ?? undefined;
  }

  /** Saves the files for the next process; without them it does more work, nothing is lost. */
  private save(files: ReadonlyMap<string, FileEntry>, checkpoint?: { commit: string; tree: string }): void {
    this.savedFiles = undefined;
    this.unsavedStats = undefined;
    try {
      saveFiles(this.repo.gitDir, files, checkpoint);
    } catch {
      // A full disk or a read-only home: the next process reads the files or asks git again.
    }
  }

  /**
   * After a snapshot was answered: the index git compares stats with is written when it is due,
   * so the next snapshot of a large workspace asks git instead of one lstat a file here. It gives
   * up when `stop` says a snapshot is waiting.
   */
  async settle(stop?: () => boolean): Promise<void> {
    if (this.memory) await this.statter.update(this.memory.files, stop);
  }

  /** Ends the stat helper thread. */
  close(): Promise<void> {
    return this.lstat.close();
  }
}
