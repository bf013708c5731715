import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { byCodeUnits } from '../util/code_unit_order.js';
import { REF_PREFIX } from './records.js';

const OBJECT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** A file's text; empty when there is none. */
function readIfThere(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

/** The checkpoint refs, oldest first, and the commit of each. */
export interface CheckpointRefs {
  refs: string[];
  commits: Map<string, string>;
}

/**
 * The checkpoint refs as git keeps them on disk, read without a git process: the loose ones under
 * refs/lathe/checkpoints/ and the lines of packed-refs (a loose ref wins over a packed one of the
 * same name). Undefined when anything is not as expected (the caller then asks git).
 */
export function readCheckpointRefs(gitDir: string): CheckpointRefs | undefined {
  const commits = new Map<string, string>();
  try {
    for (const line of readIfThere(join(gitDir, 'packed-refs')).split('\n')) {
      const [id, name] = line.split(' ');
      if (name?.startsWith(REF_PREFIX) && OBJECT_ID.test(id)) commits.set(name, id);
    }
    const folder = join(gitDir, REF_PREFIX);
    const loose = existsSync(folder) ? readdirSync(folder, { withFileTypes: true }) : [];
    for (const entry of loose) {
      if (entry.name.endsWith('.lock')) continue;
      const id = entry.isFile() ? readFileSync(join(folder, entry.name), 'utf8').trim() : '';
      if (!OBJECT_ID.test(id)) return undefined;
      commits.set(`${REF_PREFIX}${entry.name}`, id);
    }
  } catch {
    return undefined;
  }
  return { refs: [...commits.keys()].sort(byCodeUnits), commits };
}

/** The commit a ref outside the checkpoints (a loose one lathe writes) points at, if any. */
export function readLooseRef(gitDir: string, ref: string): string | undefined {
  try {
    const id = readFileSync(join(gitDir, ref), 'utf8').trim();
    return OBJECT_ID.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}
