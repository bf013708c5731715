import * as fs from 'node:fs/promises';
import { join } from 'node:path';
import type { ShadowRepo } from './shadow_repo.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Each checkpoint is a small pack: past this many, they are merged in the background. */
const MAX_PACKS = 40;

type Locked = <T>(work: () => Promise<T>) => Promise<T>;

/** The shadow repository's upkeep: git gc after pruning (at most daily), packs merged when many. */
export class Housekeeping {
  private running?: Promise<void>;

  constructor(
    private readonly repo: ShadowRepo,
    private readonly locked: Locked,
  ) {}

  /** git gc of the shadow repository, holding its lock (a snapshot meanwhile waits). */
  gc(): Promise<void> {
    this.running ??= this.locked(async () => {
      await this.repo.git(['gc', '--quiet', '--prune=now']);
      await fs.writeFile(join(this.repo.gitDir, 'lathe-gc'), `${new Date().toISOString()}\n`);
    }).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** After a checkpoint: gc when refs were pruned, else a repack when packs pile up; in the background. */
  afterWrite(pruned: boolean): void {
    void (pruned ? this.gcWhenDue() : this.repackWhenMany());
  }

  /** Merges the small packs checkpoints leave (and the loose objects of saved files) when there are many. */
  private async repackWhenMany(): Promise<void> {
    const packs = await fs.readdir(join(this.repo.gitDir, 'objects', 'pack')).catch(() => []);
    if (packs.filter((name) => name.endsWith('.pack')).length <= MAX_PACKS || this.running) return;
    this.running = this.locked(async () => {
      await this.repo.git(['repack', '-d', '-q', '--geometric=2']);
    })
      .catch(() => {
        // A failed repack leaves the packs as they were; the next checkpoint tries again.
      })
      .finally(() => {
        this.running = undefined;
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
