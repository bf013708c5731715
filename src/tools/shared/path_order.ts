/**
 * Orders relative paths folder by folder, as ripgrep's `--sort path` does: `a/b` before `a.txt`
 * (the folder `a` sorts before the name `a.txt`), so a folder's contents stay together.
 */
export function comparePaths(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x === 47) return -1; // '/' ends a name: the shorter name sorts first
    if (y === 47) return 1;
    return x - y;
  }
  return a.length - b.length;
}

/**
 * A path kept from a long listing, as a string of its own: a listing's records are cut from the
 * text of a whole chunk of output and would each hold all of it in memory.
 */
export function keptPath(path: string): string {
  return Buffer.from(path, 'utf8').toString('utf8');
}

/**
 * The first `limit` of a stream of paths in path order, without holding the rest: a listing of a
 * million paths keeps `limit` of them.
 */
export class FirstPaths {
  private readonly kept: string[] = [];
  /** How many paths were offered. */
  count = 0;

  constructor(private readonly limit: number) {}

  add(path: string): void {
    this.count++;
    const kept = this.kept;
    if (kept.length === this.limit && comparePaths(path, kept[kept.length - 1]) >= 0) return;
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (comparePaths(kept[mid], path) < 0) low = mid + 1;
      else high = mid;
    }
    kept.splice(low, 0, keptPath(path));
    if (kept.length > this.limit) kept.pop();
  }

  /** The kept paths, in path order. */
  paths(): string[] {
    return [...this.kept];
  }
}
