import { randomBytes } from 'node:crypto';
import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FileEntry, FileStats } from './fast_import.js';
import { type FileStatList, type PathStats, type StatSource, statHere } from './file_stats.js';
import type { ShadowRepo } from './shadow_repo.js';
import { type IndexOwner, writeStatIndex } from './stat_index.js';

/**
 * The stats of a large workspace's files, compared by git in C: one `git diff-files` over an
 * index lathe wrote of the files' stats finds those whose stats changed, several times faster
 * than one lstat a file from JavaScript (about 1–1.5 µs a file against 2–4.5 µs on 100,000 files,
 * and on git's threads). A file git says changed, or one the index does not hold as it is now in
 * memory (read since the index was written), is looked at here as before; git's word is taken
 * only for a file whose stats in the index are the very ones lathe holds for it.
 *
 * Each process writes an index of its own (another process's would hold other stats), after a
 * snapshot is answered, when enough files were read since the last: the write gives way to a
 * snapshot asked meanwhile, and is done after the next one. Below INDEXED_FROM files, lathe's own lstat is as quick as a git process.
 */

/** Files from which git compares the stats: below, a git process costs what the lstats do. */
export const INDEXED_FROM = 10_000;
/** Files read since the index was written past which it is written again (each costs an lstat here till then). */
const REWRITE_AFTER = 500;
const INDEX_PREFIX = 'lathe-index.';
/**
 * Snapshots of the tree a process takes before it writes its index: the write costs about what
 * one snapshot's lstats do, and runs beside the command that follows, so a short run (`lathe -p`
 * with a command or two) never pays for it.
 */
const INDEX_AFTER = 3;
/** Files git called changed that were not, past which (and past half its answer) it is not asked again. */
const GIVE_UP_FROM = 1_000;

export class IndexedStatter implements StatSource {
  /** The stats the index holds, by path; undefined before it is written. */
  private indexed?: Map<string, FileStats>;
  /** The files last looked at for the index (a snapshot that changed nothing keeps the same map). */
  private lastFiles?: ReadonlyMap<string, FileEntry>;
  /** git's answers proved of no use here (it compares what lathe's stats cannot tell): not asked again. */
  private off = false;
  /** Snapshots settled so far. */
  private snapshots = 0;
  /** The last answer given, to learn whether git's word was of use. */
  private last?: CheckedStats;

  constructor(
    private readonly repo: ShadowRepo,
    private readonly fallback: StatSource,
    /** Where this process's index goes (statIndexFile). */
    private readonly indexFile: string,
    /** Files from which git is asked (INDEXED_FROM unless set). */
    private readonly from = INDEXED_FROM,
    /** Snapshots a process takes before its index is first written (INDEX_AFTER unless set). */
    private readonly after = INDEX_AFTER,
  ) {}

  async stat(root: string, paths: readonly string[]): Promise<PathStats> {
    const indexed = this.indexed;
    if (!indexed || this.off || paths.length < this.from) return this.fallback.stat(root, paths);
    let listed: string;
    try {
      listed = (await this.repo.git(['diff-files', '-z', '--name-only'], { indexFile: this.indexFile }))
        .stdout;
    } catch {
      this.forget();
      return this.fallback.stat(root, paths);
    }
    this.last = new CheckedStats(root, paths, new Set(listed.split('\0')), indexed);
    return this.last;
  }

  /**
   * After a snapshot, with its files as memory holds them: writes the index when there is none
   * yet or enough files were read since. A failure only leaves lathe's own lstat to do the work.
   */
  async update(files: ReadonlyMap<string, FileEntry>, stop?: () => boolean): Promise<void> {
    // Most of what git called changed was not (another owner's files, a git that compares
    // nanoseconds): lathe's own lstat is the quicker from now on.
    const last = this.last;
    if (last && last.wrong >= Math.min(GIVE_UP_FROM, this.from) && last.wrong > last.changed.size / 2)
      this.off = true;
    this.last = undefined;
    this.snapshots++;
    if (this.off || files === this.lastFiles || files.size < this.from || this.snapshots < this.after) return;
    this.lastFiles = files;
    if (this.indexed) {
      let since = 0;
      for (const [path, entry] of files) if (entry.stat && this.indexed.get(path) !== entry.stat) since++;
      if (since <= REWRITE_AFTER) return;
    }
    try {
      if (!this.indexed) removeDeadIndexes(this.repo.gitDir);
      const indexed = await writeStatIndex(this.indexFile, files, ownerOf(this.repo.workTree), stop);
      // Stopped for a snapshot: written after a later one.
      if (indexed) this.indexed = indexed;
      else this.lastFiles = undefined;
    } catch {
      this.forget();
    }
  }

  private forget(): void {
    this.indexed = undefined;
    this.lastFiles = undefined;
    removeStatIndex(this.indexFile);
  }
}

/** A new name for a process's index in the shadow repository. */
export const statIndexFile = (gitDir: string): string =>
  join(gitDir, `${INDEX_PREFIX}${process.pid}.${randomBytes(4).toString('hex')}`);

/** Removes an index, and what a write stopped midway left. */
export function removeStatIndex(indexFile: string): void {
  rmSync(indexFile, { force: true });
  rmSync(`${indexFile}.tmp`, { force: true });
}

/** git's answer, with a look here at each file it cannot vouch for. */
class CheckedStats implements PathStats {
  private readonly own = new Map<number, FileStatList>();
  /** Files git called changed whose stats are the same after all. */
  wrong = 0;

  constructor(
    private readonly root: string,
    private readonly paths: readonly string[],
    readonly changed: ReadonlySet<string>,
    private readonly indexed: ReadonlyMap<string, FileStats>,
  ) {}

  matches(index: number, known: FileStats): boolean {
    const path = this.paths[index];
    const held = this.indexed.get(path) === known;
    if (held && !this.changed.has(path)) return true;
    const same = this.here(index).matches(0, known);
    if (same && held) this.wrong++;
    return same;
  }

  at(index: number): FileStats | undefined {
    return this.here(index).at(0);
  }

  private here(index: number): FileStatList {
    let list = this.own.get(index);
    if (!list) {
      list = statHere(this.root, [this.paths[index]]);
      this.own.set(index, list);
    }
    return list;
  }
}

/** The owner the index gives every file: this process's, on the workspace's device. */
function ownerOf(workTree: string): IndexOwner {
  return {
    uid: process.getuid?.() ?? 0,
    gid: process.getgid?.() ?? 0,
    dev: lstatSync(workTree).dev,
  };
}

/** Removes the indexes of processes that ended (killed before they removed theirs). */
function removeDeadIndexes(gitDir: string): void {
  for (const name of readdirSync(gitDir)) {
    if (!name.startsWith(INDEX_PREFIX)) continue;
    const pid = Number(name.slice(INDEX_PREFIX.length).split('.')[0]);
    if (pid === process.pid || !Number.isInteger(pid) || alive(pid)) continue;
    rmSync(join(gitDir, name), { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
