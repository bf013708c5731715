import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { atomicWriteFile } from '../edit/atomic_write.js';

export class StoreError extends Error {}

/**
 * A list of records persisted as `{ "<key>": [...] }` in one JSON file, replaced atomically on
 * every change. Changes from this process are applied one at a time; a file that does not parse
 * is reported, never overwritten, so a hand edit gone wrong loses nothing.
 */
export class JsonListStore<T> {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly path: string,
    private readonly key: string,
  ) {}

  async read(): Promise<T[]> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    try {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      const items = parsed?.[this.key];
      if (!Array.isArray(items)) throw new Error(`no "${this.key}" list`);
      return items as T[];
    } catch (error) {
      throw new StoreError(`${this.path} is not valid (${(error as Error).message}); fix or remove it.`);
    }
  }

  /** Reads, changes and writes the list; `change` returns the new list and a result. */
  update<R>(change: (items: T[]) => { items: T[]; result: R }): Promise<R> {
    const next = this.queue.then(async () => {
      const { items, result } = change(await this.read());
      // Trigger token hashes live here too: only the user may read the folder and files.
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      await atomicWriteFile(this.path, `${JSON.stringify({ [this.key]: items }, null, 2)}\n`, {
        mode: 0o600,
      });
      return result;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }
}
