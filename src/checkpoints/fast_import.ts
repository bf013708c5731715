import { createHash } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ShadowGitError, type ShadowRepo } from './shadow_repo.js';
import { MAX_FILE_BYTES, type SkippedFile, tooLarge } from './walk.js';

/** A file's mode as git stores it: plain, executable, or a symlink. */
export type FileMode = '100644' | '100755' | '120000';

/** The stats that must be the same for a file to be taken as unchanged without reading it. */
export interface FileStats {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  mode: number;
}

/** A file of a snapshot: its mode and blob id, and its stats when they can be trusted next time. */
export interface FileEntry {
  mode: FileMode;
  sha: string;
  /** Undefined when the file changed too recently for its stats to prove anything. */
  stat?: FileStats;
}

/**
 * A file whose content differs from the base tree's; `data` is kept when it was small enough to
 * hold, `sha` names a blob the repository holds already (nothing is read then).
 */
export interface FileChange {
  path: string;
  mode: FileMode;
  data?: Buffer;
  sha?: string;
}

/** One commit for `git fast-import` to write: the base tree, what changed on it, and the refs to move. */
export interface ImportRequest {
  /** The tree the changes apply to; none for a commit of the changes alone. */
  base?: string;
  changes: readonly FileChange[];
  removed: readonly string[];
  ref: string;
  message: string;
  at: number;
  /** Refs deleted in the same run (checkpoints pruned). */
  deleteRefs?: readonly string[];
}

export interface ImportResult {
  commit: string;
  tree: string;
  /** The changes as written, when a file had to be read again (it may have changed meanwhile). */
  written: Map<string, FileEntry>;
  /** Files that could not be read again: left as the base tree has them. */
  skipped: SkippedFile[];
}

const NULL_ID = '0'.repeat(40);
export const CHECKPOINT_IDENTITY = 'lathe <checkpoints@lathe.invalid>';

/** git's id of a blob with this content. */
export function blobSha(data: Buffer): string {
  return createHash('sha1').update(`blob ${data.length}\0`).update(data).digest('hex');
}

/** A file's bytes as git stores them: a symlink's target, or the file's content. */
export function readBlob(abs: string, mode: FileMode): Buffer {
  return mode === '120000' ? readlinkSync(abs, { encoding: 'buffer' }) : readFileSync(abs);
}

/**
 * Writes a commit with one `git fast-import` process: the blobs that changed, the trees along
 * their paths (the rest are the base tree's), the commit and its ref, and the pruned refs gone.
 * Nothing reads an index, so the cost follows the change, not the size of the workspace.
 */
export async function importCommit(repo: ShadowRepo, request: ImportRequest): Promise<ImportResult> {
  const written = new Map<string, FileEntry>();
  const skipped: SkippedFile[] = [];
  const stdout = await repo.gitStream(
    ['fast-import', '--quiet', '--force', '--done'],
    ['-c', 'fastimport.unpackLimit=0'],
    async (write) => {
      const seconds = Math.floor(request.at / 1000);
      const message = Buffer.from(request.message);
      await write(
        `commit ${request.ref}\nmark :1\nauthor ${CHECKPOINT_IDENTITY} ${seconds} +0000\ncommitter ${CHECKPOINT_IDENTITY} ${seconds} +0000\ndata ${message.length}\n`,
      );
      await write(message);
      await write(request.base ? `\nM 040000 ${request.base} ""\n` : '\n');
      for (const path of request.removed) await write(`D ${quotePath(path)}\n`);
      for (const change of request.changes) {
        if (change.sha) {
          await write(`M ${change.mode} ${change.sha} ${quotePath(change.path)}\n`);
          continue;
        }
        let data = change.data;
        if (!data) {
          try {
            data = readBlob(join(repo.workTree, change.path), change.mode);
          } catch {
            skipped.push({ path: change.path, reason: 'not readable' });
            continue;
          }
          if (data.length > MAX_FILE_BYTES) {
            skipped.push({
              path: change.path,
              reason: tooLarge(data.length),
            });
            continue;
          }
          written.set(change.path, { mode: change.mode, sha: blobSha(data) });
        }
        await write(`M ${change.mode} inline ${quotePath(change.path)}\ndata ${data.length}\n`);
        await write(data);
        await write('\n');
      }
      await write('\nget-mark :1\nls :1 ""\n');
      for (const ref of request.deleteRefs ?? []) await write(`reset ${ref}\nfrom ${NULL_ID}\n\n`);
      await write('done\n');
    },
  );
  const [commit] = stdout.split('\n');
  const tree = /^040000 tree ([0-9a-f]{40})/m.exec(stdout)?.[1];
  if (!/^[0-9a-f]{40}$/.test(commit) || !tree)
    throw new ShadowGitError(`git fast-import answered in an unexpected way: ${stdout.slice(0, 200)}`);
  return { commit, tree, written, skipped };
}

/** A path in fast-import's C-style quotes: any byte but `"`, `\` and control characters as it is. */
function quotePath(path: string): string {
  const escaped = path.replace(/[\\"\x00-\x1f\x7f]/g, (c) => {
    if (c === '\\' || c === '"') return `\\${c}`;
    if (c === '\n') return '\\n';
    if (c === '\t') return '\\t';
    return `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`;
  });
  return `"${escaped}"`;
}
