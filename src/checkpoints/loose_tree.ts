import type { FileMode } from './fast_import.js';
import { writeLooseObject } from './loose_commit.js';

/** A file of a tree to write: its mode and the id of a blob the repository holds. */
export interface TreeFile {
  mode: FileMode;
  sha: string;
}

interface Folder {
  files: Map<string, TreeFile>;
  folders: Map<string, Folder>;
}

/**
 * Writes the tree of a few files (paths with `/`, blobs already stored) as git lays trees out:
 * one loose object per folder, entries in git's order (a folder sorts as if its name ended in
 * `/`); the tree of no file is git's empty tree, stored. Returns the tree's id.
 */
export function writeLooseTree(gitDir: string, files: ReadonlyMap<string, TreeFile>): string {
  const root: Folder = { files: new Map(), folders: new Map() };
  for (const [path, file] of files) {
    const parts = path.split('/');
    let folder = root;
    for (const name of parts.slice(0, -1)) {
      let next = folder.folders.get(name);
      if (!next) {
        next = { files: new Map(), folders: new Map() };
        folder.folders.set(name, next);
      }
      folder = next;
    }
    folder.files.set(parts[parts.length - 1], file);
  }
  return writeFolder(gitDir, root);
}

function writeFolder(gitDir: string, folder: Folder): string {
  const entries: Array<{ key: Buffer; mode: string; name: string; sha: string }> = [];
  for (const [name, file] of folder.files)
    entries.push({ key: Buffer.from(name), mode: file.mode, name, sha: file.sha });
  for (const [name, sub] of folder.folders)
    entries.push({ key: Buffer.from(`${name}/`), mode: '40000', name, sha: writeFolder(gitDir, sub) });
  entries.sort((a, b) => Buffer.compare(a.key, b.key));
  const body = Buffer.concat(
    entries.flatMap(({ mode, name, sha }) => [Buffer.from(`${mode} ${name}\0`), Buffer.from(sha, 'hex')]),
  );
  return writeLooseObject(gitDir, 'tree', body);
}
