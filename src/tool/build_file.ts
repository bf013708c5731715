import { readFileSync } from 'node:fs';

/**
 * A JSON file the build writes beside lathe's modules (dist/<name>, one folder up from this
 * module and from the bundle's chunks alike), read at its first use; empty when there is none,
 * as when lathe runs from its sources.
 */
export function buildFile<T extends object>(name: string): () => Partial<T> {
  let content: Partial<T> | undefined;
  return () => {
    if (!content) {
      try {
        content = JSON.parse(readFileSync(new URL(`../${name}`, import.meta.url), 'utf8')) as T;
      } catch {
        content = {};
      }
    }
    return content;
  };
}
