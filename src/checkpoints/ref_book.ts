import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { byCodeUnits } from '../util/code_unit_order.js';
import { REF_PREFIX, refTime } from './records.js';
import { readCheckpointRefs } from './refs_on_disk.js';
import type { ShadowRepo } from './shadow_repo.js';

/** The refs' stamp of a repository that holds no checkpoint ref, loose or packed. */
const NO_REFS = '-|-';
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The checkpoint refs of a shadow repository, oldest first, as this process last saw them
 * (read again only when another process changed them), and which are due to be pruned.
 */
export class RefBook {
  private known?: { stamp: string; refs: string[] };

  constructor(
    private readonly repo: ShadowRepo,
    private readonly limits: { keep: number; maxAgeDays: number },
  ) {}

  /** The refs oldest first: from disk, or from git when they are not as expected there. */
  async names(): Promise<string[]> {
    const stamp = this.stamp();
    if (this.known?.stamp === stamp) return this.known.refs;
    // Neither a folder of loose checkpoint refs nor packed refs: there is no checkpoint yet.
    let refs = stamp === NO_REFS ? [] : readCheckpointRefs(this.repo.gitDir)?.refs;
    if (!refs) {
      const listed = await this.repo.git(['for-each-ref', '--format=%(refname)', REF_PREFIX]);
      refs = listed.stdout.split('\n').filter(Boolean).sort(byCodeUnits);
    }
    this.known = { stamp, refs };
    return refs;
  }

  /** Refs past `keep` (counting `adding` new ones) or older than `maxAgeDays`, oldest first. */
  async stale(adding: number): Promise<string[]> {
    const refs = await this.names();
    const over = Math.max(0, refs.length + adding - this.limits.keep);
    const oldest = Date.now() - this.limits.maxAgeDays * DAY_MS;
    return refs.filter((ref, i) => i < over || refTime(ref) < oldest);
  }

  /** After a write by this process: `ref` is there, `pruned` are gone. */
  wrote(ref: string, pruned: readonly string[]): void {
    const kept = (this.known?.refs ?? []).filter((r) => !pruned.includes(r));
    this.known = { stamp: this.stamp(), refs: [...kept, ref].sort(byCodeUnits) };
  }

  forget(): void {
    this.known = undefined;
  }

  /** The loose refs folder and packed-refs as they are: they change whenever a checkpoint is added or pruned. */
  private stamp(): string {
    const stat = (path: string) => {
      const s = lstatSync(join(this.repo.gitDir, path), { throwIfNoEntry: false });
      return s ? `${s.mtimeMs}:${s.size}:${s.ino}` : '-';
    };
    return `${stat(REF_PREFIX)}|${stat('packed-refs')}`;
  }
}

/** Refs deleted with `git update-ref --stdin`. */
export function deletions(refs: readonly string[]): string {
  return refs.map((ref) => `delete ${ref}\n`).join('');
}
