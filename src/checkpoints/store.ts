import { randomBytes } from 'node:crypto';
import { lstatSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { join } from 'node:path';
import { byCodeUnits } from '../util/code_unit_order.js';
import { withFileLock } from '../util/file_lock.js';
import {
  CHECKPOINT_IDENTITY,
  type FileEntry,
  type ImportRequest,
  type ImportResult,
  importCommit,
} from './fast_import.js';
import { FileStatter } from './file_stats.js';
import { EMPTY_TREE, writeLooseCommit } from './loose_commit.js';
import {
  type Checkpoint,
  type CheckpointMeta,
  commitMessage,
  LIST_FORMAT,
  parseListing,
  REF_PREFIX,
  refFor,
} from './records.js';
import { readCheckpointRefs } from './refs_on_disk.js';
import { switchTree, type TreeChange } from './restore.js';
import { ShadowGitError, ShadowRepo, shadowGitDir } from './shadow_repo.js';
import { isClean, readTree, scanWorkspace, type TreeMemory, type WorkspaceScan } from './snapshot.js';
import { addCachedStats, readSavedFiles, type SavedFiles, savedTree, saveFiles } from './stat_cache.js';
import { WorkspaceWalker } from './walk.js';

export interface CheckpointStoreOptions {
  workspace: string;
  documentsRoot: string;
  /** How many checkpoints to keep, and for how long (settings `checkpoints`). */
  keep: number;
  maxAgeDays: number;
  /** Patterns in .gitignore form left out (`checkpoints.exclude`). */
  exclude?: readonly string[];
  /** Absolute folders never walked (lathe's home and session folder when they lie inside). */
  skipFolders?: readonly string[];
  env?: NodeJS.ProcessEnv;
}

/** What a restore did: the checkpoint restored, the one taken of the present just before, and the change. */
export interface RestoreResult {
  target: Checkpoint;
  before: Checkpoint;
  change: TreeChange;
}

export class CheckpointError extends Error {}

/** The refs' stamp of a repository that holds no checkpoint ref, loose or packed. */
const NO_REFS = '-|-';
const DAY_MS = 24 * 60 * 60 * 1000;
/** Where the tree of the present goes when no checkpoint is made of it (`/undo` compares with it). */
const PRESENT_REF = 'refs/lathe/present';
/** Each checkpoint is a small pack: past this many, they are merged in the background. */
const MAX_PACKS = 40;
/** Files read in one scan past which their stats are saved for the next process. */
const STATS_WORTH_SAVING = 200;
/** Files a workspace may hold for them all to be saved after every checkpoint (a quick write). */
const SAVED_IN_FULL = 5_000;

/**
 * The checkpoints of one workspace, in its shadow repository. Every snapshot, restore and prune
 * holds the repository's lock, so lathe processes sharing a workspace take turns; a lock or git
 * lock left by a killed process is taken over.
 */
export class CheckpointStore {
  readonly repo: ShadowRepo;
  private readonly walker: WorkspaceWalker;
  /** The stats of the workspace's files, with a helper thread on a large one (unreferenced: it never keeps lathe up). */
  private readonly statter = new FileStatter();
  private readonly lockPath: string;
  /** The tree last written and its files' stats: what the next snapshot compares with. */
  private memory?: TreeMemory;
  /** The refs and the newest checkpoint's tree as of the refs' state in `refsStamp` (and that checkpoint, once known). */
  private newest?: { stamp: string; tree?: string; refs: string[]; checkpoint?: Checkpoint };
  private gcRunning?: Promise<void>;
  /** The saved files once read: null when there were none. */
  private savedFiles?: SavedFiles | null;
  /** Stats a scan learnt by reading many files, saved when the locked work ends unless a checkpoint's save took them. */
  private unsavedStats?: ReadonlyMap<string, FileEntry>;

  constructor(private readonly options: CheckpointStoreOptions) {
    const gitDir = shadowGitDir(options.documentsRoot, options.workspace);
    this.repo = new ShadowRepo(gitDir, options.workspace, options.env);
    this.lockPath = `${gitDir}.lock`;
    this.walker = new WorkspaceWalker(options.workspace, {
      exclude: options.exclude,
      skipFolders: options.skipFolders,
    });
  }

  /**
   * A checkpoint of the workspace as it is now. Unless `always`, a tree the newest checkpoint
   * already holds makes none, and that one is returned.
   */
  take(
    meta: Omit<CheckpointMeta, 'at' | 'skipped'>,
    options: { always?: boolean } = {},
  ): Promise<Checkpoint> {
    return this.locked(async () => {
      const scan = await this.scan();
      const refs = await this.newestRefs();
      if (!options.always && isClean(scan) && refs.tree === scan.base.tree) {
        const existing = refs.checkpoint ?? (await this.list()).at(-1);
        if (existing) return existing;
      }
      return this.commit(meta, scan);
    });
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
   * Makes the workspace byte-identical to a checkpoint: files created since are removed, changed
   * and deleted ones come back with their modes. The present is checkpointed first, so the
   * restore itself can be taken back.
   */
  restore(target: Checkpoint, session?: string): Promise<RestoreResult> {
    return this.locked(async () => this.switchTo(target, await this.scan(), session));
  }

  /** Checkpoints the present (as a restore's own checkpoint), then turns the files into `target`'s. */
  private async switchTo(target: Checkpoint, scan: WorkspaceScan, session?: string): Promise<RestoreResult> {
    const before = await this.commit(
      { kind: 'restore', label: `before restoring ${target.id}`, session, restored: target.commit },
      scan,
    );
    const keep = new Set(before.skipped?.map((s) => s.path));
    const { change, files } = await switchTree(this.repo, before.tree, target.tree, keep);
    // The files the tree of `target` holds: those of the present with the difference applied.
    const known = new Map(this.memory?.files);
    for (const [path, entry] of files) {
      if (entry) known.set(path, entry);
      else known.delete(path);
    }
    this.memory = { tree: target.tree, files: known };
    return { target, before, change };
  }

  /**
   * `/undo`: back to the newest checkpoint taken before a prompt whose files differ from the
   * present; right after a restore, from the checkpoint it restored on, so a second /undo goes
   * one prompt further back. Undefined when there is none.
   */
  undo(session?: string): Promise<RestoreResult | undefined> {
    return this.locked(async () => {
      const present = await this.presentTree();
      const all = await this.list();
      const last = all.at(-1);
      const restored = last?.kind === 'restore' ? all.findIndex((c) => c.commit === last.restored) : -1;
      const end = restored >= 0 && all[restored].tree === present ? restored : all.length;
      const turns = all.slice(0, end).filter((c) => c.kind === 'turn');
      const target = turns.reverse().find((c) => c.tree !== present);
      if (!target) return undefined;
      return this.switchTo(target, await this.scan(), session);
    });
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
        const removed = (await this.refNames()).length;
        await fs.rm(this.repo.gitDir, { recursive: true, force: true });
        this.memory = undefined;
        this.newest = undefined;
        return { removed };
      });
    }
    const removed = await this.locked(async () => {
      const stale = this.staleRefs(await this.refNames(), 0);
      if (stale.length > 0) await this.repo.git(['update-ref', '--stdin'], { input: deletions(stale) });
      return stale.length;
    });
    await this.gc();
    return { removed };
  }

  /** git gc of the shadow repository, holding its lock (a snapshot meanwhile waits). */
  gc(): Promise<void> {
    this.gcRunning ??= this.locked(async () => {
      await this.repo.git(['gc', '--quiet', '--prune=now']);
      await fs.writeFile(join(this.repo.gitDir, 'lathe-gc'), `${new Date().toISOString()}\n`);
    }).finally(() => {
      this.gcRunning = undefined;
    });
    return this.gcRunning;
  }

  private locked<T>(work: () => Promise<T>): Promise<T> {
    return withFileLock(
      this.lockPath,
      async () => {
        this.repo.ensure();
        this.repo.clearStaleLocks();
        try {
          return await work();
        } finally {
          if (this.unsavedStats) this.save(this.unsavedStats);
        }
      },
      {
        busy: (pid) =>
          new CheckpointError(
            `another lathe process (pid ${pid ?? 'unknown'}) holds the checkpoint lock ${this.lockPath}`,
          ),
      },
    );
  }

  /** The workspace as it is now against the tree last written (lock held). */
  private async scan(): Promise<WorkspaceScan> {
    if (!this.memory) {
      // A new process: the newest checkpoint's files as the last process saved them, or as git
      // lists them (then each file is read once to learn its stats).
      const { tree } = await this.newestRefs();
      const saved = this.saved();
      this.memory = tree
        ? (savedTree(saved, tree) ?? (await readTree(this.repo, tree)))
        : { files: new Map() };
      addCachedStats(saved, this.memory);
    }
    const scan = await scanWorkspace(this.options.workspace, this.walker, this.memory, this.statter);
    // The same tree, with the stats of the files read since.
    if (isClean(scan)) this.memory = { tree: scan.base.tree, files: scan.files };
    // Many files read: keep their stats for the next process (a few are not worth the write),
    // once, with the checkpoint's tree when one follows (see `locked`).
    if (scan.read > STATS_WORTH_SAVING) this.unsavedStats = scan.files;
    return scan;
  }

  /** The tree of the workspace as it is now, written under a ref of its own when it changed (lock held). */
  private async presentTree(): Promise<string> {
    const scan = await this.scan();
    if (isClean(scan) && scan.base.tree) return scan.base.tree;
    const at = Date.now();
    return (await this.write(scan, { ref: PRESENT_REF, message: 'the present\n', at })).tree;
  }

  /** A checkpoint of the workspace as a scan found it, old ones pruned in the same git call (lock held). */
  private async commit(
    meta: Omit<CheckpointMeta, 'at' | 'skipped'>,
    scan: WorkspaceScan,
  ): Promise<Checkpoint> {
    const refs = await this.newestRefs();
    const at = Date.now();
    const ref = refFor(at, randomBytes(3).toString('hex'));
    const stale = this.staleRefs(refs.refs, 1);
    // The files left out are known before the write but for those that could not be read again.
    const full: CheckpointMeta = { ...meta, at, skipped: scan.skipped, skippedCount: scan.skipped.length };
    const written = await this.write(scan, { ref, message: commitMessage(full), at, deleteRefs: stale });
    if (written.skipped.length > 0) {
      full.skipped = [...scan.skipped, ...written.skipped];
      full.skippedCount = full.skipped.length;
    }
    const kept = refs.refs.filter((r) => !stale.includes(r));
    const { commit, tree } = written;
    const checkpoint: Checkpoint = { ...full, id: commit.slice(0, 8), commit, tree, ref };
    this.newest = { stamp: this.refsStamp(), tree, refs: [...kept, ref], checkpoint };
    // The next process then learns the newest tree and its files without git.
    if (this.memory && (this.memory.files.size <= SAVED_IN_FULL || scan.read > STATS_WORTH_SAVING))
      this.save(this.memory.files, { commit, tree });
    if (stale.length > 0) void this.gcWhenDue();
    else void this.repackWhenMany();
    return checkpoint;
  }

  /**
   * Writes the scan's tree and a commit of it under `target.ref` with one git process, and
   * remembers the files it holds. When the base tree is gone (pruned by another process), every
   * file is written anew.
   */
  private async write(
    scan: WorkspaceScan,
    target: Pick<ImportRequest, 'ref' | 'message' | 'at' | 'deleteRefs'>,
  ): Promise<ImportResult> {
    const request = (s: WorkspaceScan): ImportRequest => ({
      base: s.base.tree,
      changes: s.changes,
      removed: s.removed,
      ...target,
    });
    let result: ImportResult;
    try {
      result = (await this.writeUnchanged(scan, target)) ?? (await importCommit(this.repo, request(scan)));
    } catch (error) {
      if (!scan.base.tree) throw error;
      this.memory = { files: new Map() };
      scan = await scanWorkspace(this.options.workspace, this.walker, this.memory, this.statter);
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
    this.memory = { tree: result.tree, files };
    return result;
  }

  /**
   * A commit of the newest checkpoint's tree (the scan found no change) or of no file at all, with
   * no ref to prune: written without git. The newest checkpoint's ref keeps its tree in the
   * repository (an older tree this process remembers may have been pruned by another). Undefined
   * when git must write it, or when it could not be written so (a ref's lock left behind).
   */
  private async writeUnchanged(
    scan: WorkspaceScan,
    target: Pick<ImportRequest, 'ref' | 'message' | 'at' | 'deleteRefs'>,
  ): Promise<ImportResult | undefined> {
    if (target.deleteRefs?.length) return undefined;
    const tree =
      scan.files.size === 0
        ? EMPTY_TREE
        : isClean(scan) && scan.base.tree === (await this.newestRefs()).tree
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

  /** The refs oldest first and the newest checkpoint's tree, remembered while no one else changed them. */
  private async newestRefs(): Promise<NonNullable<CheckpointStore['newest']>> {
    const stamp = this.refsStamp();
    if (this.newest?.stamp === stamp) return this.newest;
    // Neither a folder of loose checkpoint refs nor packed refs: there is no checkpoint yet.
    if (stamp === NO_REFS) {
      this.newest = { stamp, refs: [] };
      return this.newest;
    }
    // The refs as git keeps them, and the newest one's tree when the last process saved it.
    const onDisk = readCheckpointRefs(this.repo.gitDir);
    const saved = onDisk?.newestCommit && this.saved();
    if (onDisk && saved && saved.commit === onDisk.newestCommit && saved.tree) {
      this.newest = { stamp, tree: saved.tree, refs: onDisk.refs };
      return this.newest;
    }
    const listed = await this.repo.git(['for-each-ref', '--format=%(refname) %(tree)', REF_PREFIX]);
    const rows = listed.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' '))
      .sort((a, b) => byCodeUnits(a[0], b[0]));
    this.newest = { stamp, tree: rows.at(-1)?.[1], refs: rows.map((r) => r[0]) };
    return this.newest;
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

  private async refNames(): Promise<string[]> {
    return (await this.newestRefs()).refs;
  }

  /** Refs past `keep` (counting `adding` new ones) or older than `maxAgeDays`, oldest first. */
  private staleRefs(refs: string[], adding: number): string[] {
    const over = Math.max(0, refs.length + adding - this.options.keep);
    const oldest = Date.now() - this.options.maxAgeDays * DAY_MS;
    return refs.filter((ref, i) => i < over || refTime(ref) < oldest);
  }

  /** The loose refs folder and packed-refs as they are: they change whenever a checkpoint is added or pruned. */
  private refsStamp(): string {
    const stat = (path: string) => {
      const s = lstatSync(join(this.repo.gitDir, path), { throwIfNoEntry: false });
      return s ? `${s.mtimeMs}:${s.size}:${s.ino}` : '-';
    };
    return `${stat(REF_PREFIX)}|${stat('packed-refs')}`;
  }

  /** Merges the small packs checkpoints leave, in the background, when there are many. */
  private async repackWhenMany(): Promise<void> {
    const packs = await fs.readdir(join(this.repo.gitDir, 'objects', 'pack')).catch(() => []);
    if (packs.filter((name) => name.endsWith('.pack')).length <= MAX_PACKS || this.gcRunning) return;
    this.gcRunning = this.locked(async () => {
      await this.repo.git(['repack', '-d', '-q', '--geometric=2']);
    })
      .catch(() => {
        // A failed repack leaves the packs as they were; the next checkpoint tries again.
      })
      .finally(() => {
        this.gcRunning = undefined;
      });
  }

  /** gc in the background after pruning, at most once a day. */
  private async gcWhenDue(): Promise<void> {
    const last = await fs.stat(join(this.repo.gitDir, 'lathe-gc')).catch(() => undefined);
    if (last && Date.now() - last.mtimeMs < DAY_MS) return;
    await this.gc().catch(() => {
      // A failed gc leaves the repository as it was; the next one tries again.
    });
  }
}

function deletions(refs: readonly string[]): string {
  return refs.map((ref) => `delete ${ref}\n`).join('');
}

function refTime(ref: string): number {
  return Number(ref.slice(REF_PREFIX.length).split('-')[0]);
}

/** Bytes on disk (allocated blocks) of a folder and everything in it. */
export async function folderBytes(path: string): Promise<number> {
  let total = 0;
  const entries = await fs.readdir(path, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) total += await folderBytes(full);
    else total += ((await fs.lstat(full).catch(() => undefined))?.blocks ?? 0) * 512;
  }
  return total;
}

export { ShadowGitError };
