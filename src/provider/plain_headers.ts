/** What a header list can be given as: another list, pairs, or a record. */
export type HeaderSource =
  | Iterable<readonly [string, string]>
  | { forEach(callback: (value: string, name: string) => void): void }
  | Record<string, string | readonly string[] | undefined>;

/**
 * The Fetch API's Headers without Node's global one: naming the global `Headers` even once loads
 * undici, Node's whole HTTP client (about 40 ms of CPU), which a model request on Node's own
 * client never needs. The build gives it to the AI SDK's provider utilities in place of the
 * global (scripts/bundle.mjs). Names are case-insensitive; a repeated one joins its values with
 * ", "; iteration is in name order, as with Headers.
 */
export class PlainHeaders implements Iterable<[string, string]> {
  private readonly byName = new Map<string, string>();

  constructor(init?: HeaderSource | null) {
    if (init == null) return;
    if (isHeaderList(init))
      init.forEach((value, name) => {
        this.append(name, value);
      });
    else if (Symbol.iterator in init)
      for (const [name, value] of init as Iterable<readonly [string, string]>) this.append(name, value);
    else
      for (const [name, value] of Object.entries(init)) {
        if (value === undefined) continue;
        if (typeof value === 'string') this.append(name, value);
        else for (const one of value) this.append(name, one);
      }
  }

  /** A real Headers counts as one too, so `instanceof Headers` in code given this class holds for both. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return isHeaderList(value);
  }

  get(name: string): string | null {
    return this.byName.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.byName.has(name.toLowerCase());
  }

  set(name: string, value: string): void {
    this.byName.set(name.toLowerCase(), String(value).trim());
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const known = this.byName.get(key);
    const added = String(value).trim();
    this.byName.set(key, known === undefined ? added : `${known}, ${added}`);
  }

  delete(name: string): void {
    this.byName.delete(name.toLowerCase());
  }

  forEach(callback: (value: string, name: string, headers: PlainHeaders) => void): void {
    for (const [name, value] of this) callback(value, name, this);
  }

  *entries(): IterableIterator<[string, string]> {
    const names = [...this.byName.keys()].sort();
    for (const name of names) yield [name, this.byName.get(name) as string];
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

/** A Headers object of any make (Node's, or a PlainHeaders): it has get, forEach and entries. */
function isHeaderList(
  value: unknown,
): value is { forEach(callback: (value: string, name: string) => void): void } {
  const v = value as { get?: unknown; forEach?: unknown; entries?: unknown } | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.get === 'function' &&
    typeof v.forEach === 'function' &&
    typeof v.entries === 'function'
  );
}
