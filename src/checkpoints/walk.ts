import { type Dirent, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Files larger than this are left out of checkpoints (and listed as skipped). */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

/** Why a file of `size` bytes is left out. */
export const tooLarge = (size: number): string => `over 5 MB (${(size / 1024 / 1024).toFixed(1)} MB)`;
/** A workspace with more files than this is not checkpointed: the first snapshot would take minutes. */
export const MAX_FILES = 200_000;

/** A file a checkpoint left out, and why. */
export interface SkippedFile {
  path: string;
  reason: string;
}

/** One walk of the workspace: the files a checkpoint holds, relative with `/`, and those left out. */
export interface WalkResult {
  files: Set<string>;
  /** The same files, in a list (the order of the walk). */
  list: string[];
  skipped: SkippedFile[];
}

interface IgnoreLayer {
  /** The folder the rules are relative to ('' for the workspace). */
  base: string;
  rules: Ignore;
}

/** What the walk remembers of a folder, to skip reading it again while it has not changed. */
interface FolderMemory {
  mtimeMs: number;
  /** The rules in force there when it was read (its .gitignore files up from it, by their stats). */
  rulesKey: string;
  /** Its files' paths from the workspace root. */
  files: string[];
  /** Its subfolders' names. */
  folders: string[];
  skipped: SkippedFile[];
  /** The folder changed too close to the read to trust its time stamp: read it again next time. */
  racy: boolean;
}

/** A folder counts as changed when its time stamp is this close to the moment it was read. */
const RACY_MS = 2_000;

export class WalkError extends Error {}

/**
 * lathe's own ignore-aware walk of a workspace for checkpoints: the .gitignore files (each
 * applied relative to where it lies, nested repositories' own included), the repository's
 * info/exclude, and `checkpoints.exclude`; never a `.git` entry, never into a symlinked folder.
 * It remembers each folder by its time stamp, so a walk of an unchanged tree reads no folder
 * again: content changes inside unchanged folders are found by the snapshot, by their stats.
 */
export class WorkspaceWalker {
  private readonly memory = new Map<string, FolderMemory>();
  /** Each folder's .gitignore, parsed, by the file's stats. */
  private readonly ignoreFiles = new Map<string, { key: string; layer: IgnoreLayer }>();
  private readonly rootRules: Ignore;
  /** The last walk's result: the next one gives it again when no folder changed. */
  private last?: WalkResult;

  constructor(
    private readonly root: string,
    options: {
      /** Patterns in .gitignore form (`checkpoints.exclude`). */
      exclude?: readonly string[];
      /** Absolute folders inside the workspace never to walk (lathe's own home, the session folder). */
      skipFolders?: readonly string[];
    } = {},
  ) {
    this.rootRules = ignore().add([...(options.exclude ?? [])]);
    try {
      this.rootRules.add(readFileSync(join(root, '.git', 'info', 'exclude'), 'utf8'));
    } catch {
      // no repository here, or no exclude file
    }
    for (const folder of options.skipFolders ?? []) {
      const rel = relativeInside(root, folder);
      if (rel) this.rootRules.add(`/${rel.replace(/([*?[\]!#\\])/g, '\\$1')}/`);
    }
  }

  /**
   * Walks the whole tree; folders unchanged since the last walk are taken from memory, and when
   * none changed the last result is given again (a large tree's list is not built anew).
   */
  walk(): WalkResult {
    const folders: FolderMemory[] = [];
    const seen = new Set<string>();
    let fresh = this.last === undefined;
    let count = 0;
    const stack: Array<{ rel: string; layers: IgnoreLayer[]; key: string }> = [
      { rel: '', layers: [{ base: '', rules: this.rootRules }], key: '' },
    ];
    while (stack.length > 0) {
      const { rel, layers, key } = stack.pop()!;
      seen.add(rel);
      const folder = this.folder(rel, layers, key);
      if (!folder) continue;
      if (folder.read) fresh = true;
      folders.push(folder.memory);
      count += folder.memory.files.length;
      if (count > MAX_FILES)
        throw new WalkError(
          `the workspace holds more than ${MAX_FILES.toLocaleString('en-US')} files; add large folders to checkpoints.exclude`,
        );
      for (const name of folder.memory.folders)
        stack.push({
          rel: rel ? `${rel}/${name}` : name,
          layers: folder.layers,
          key: folder.memory.rulesKey,
        });
    }
    for (const rel of this.memory.keys())
      if (!seen.has(rel)) {
        this.memory.delete(rel);
        fresh = true;
      }
    if (!fresh && this.last) return this.last;
    const list = folders.flatMap((folder) => folder.files);
    this.last = { files: new Set(list), list, skipped: folders.flatMap((folder) => folder.skipped) };
    return this.last;
  }

  /**
   * Whether a walk would hold a file at `path` (relative with `/`), there or not: no folder on
   * its way is ignored, excluded, a link or a `.git`, and neither is the file.
   */
  covers(path: string): boolean {
    const parts = path.split('/');
    let layers: IgnoreLayer[] = [{ base: '', rules: this.rootRules }];
    for (let i = 0; i < parts.length; i++) {
      const folder = parts.slice(0, i).join('/');
      const abs = join(this.root, ...parts.slice(0, i));
      const stat = lstatSync(abs, { throwIfNoEntry: false });
      if (stat && !stat.isDirectory()) return false;
      const ignoreStat = stat ? statKey(join(abs, '.gitignore')) : '';
      if (ignoreStat) layers = [...layers, this.ignoreLayer(abs, folder, ignoreStat)];
      const isFolder = i < parts.length - 1;
      if (parts[i] === '.git' || isIgnored(layers, parts.slice(0, i + 1).join('/'), isFolder)) return false;
    }
    return true;
  }

  /** A folder's entries, from memory when neither it nor the rules over it changed. */
  private folder(
    rel: string,
    parentLayers: IgnoreLayer[],
    parentKey: string,
  ): { memory: FolderMemory; layers: IgnoreLayer[]; read?: boolean } | undefined {
    // Joined by hand: path.join's normalising was most of the walk of an unchanged tree.
    const abs = rel ? `${this.root}/${rel}` : this.root;
    let mtimeMs: number;
    try {
      const stat = lstatSync(abs);
      if (!stat.isDirectory()) return undefined;
      mtimeMs = stat.mtimeMs;
    } catch {
      return undefined;
    }
    const ignoreStat = statKey(`${abs}/.gitignore`);
    const rulesKey = `${parentKey}|${ignoreStat}`;
    const layers = ignoreStat ? [...parentLayers, this.ignoreLayer(abs, rel, ignoreStat)] : parentLayers;
    const known = this.memory.get(rel);
    if (known && !known.racy && known.mtimeMs === mtimeMs && known.rulesKey === rulesKey)
      return { memory: known, layers };
    const readAt = Date.now();
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch (error) {
      // An unreadable folder is left out, and said so, rather than failing the checkpoint.
      const memory: FolderMemory = {
        mtimeMs,
        rulesKey,
        files: [],
        folders: [],
        skipped: [
          { path: rel || '.', reason: `folder not readable (${(error as NodeJS.ErrnoException).code})` },
        ],
        racy: true,
      };
      return { memory, layers, read: true };
    }
    const memory: FolderMemory = {
      mtimeMs,
      rulesKey,
      files: [],
      folders: [],
      skipped: [],
      racy: readAt - mtimeMs < RACY_MS,
    };
    for (const entry of entries) {
      const name = entry.name;
      if (name === '.git') continue;
      const path = rel ? `${rel}/${name}` : name;
      const isFolder = entry.isDirectory();
      if (isIgnored(layers, path, isFolder)) continue;
      if (isFolder) {
        memory.folders.push(name);
        continue;
      }
      if (!entry.isFile() && !entry.isSymbolicLink()) continue;
      if (entry.isFile()) {
        const size = fileSize(join(abs, name));
        if (size !== undefined && size > MAX_FILE_BYTES) {
          memory.skipped.push({ path, reason: tooLarge(size) });
          continue;
        }
      }
      memory.files.push(path);
    }
    this.memory.set(rel, memory);
    return { memory, layers, read: true };
  }

  private ignoreLayer(abs: string, rel: string, key: string): IgnoreLayer {
    const known = this.ignoreFiles.get(rel);
    if (known?.key === key) return known.layer;
    let text = '';
    try {
      text = readFileSync(join(abs, '.gitignore'), 'utf8');
    } catch {
      // unreadable: no rules from it
    }
    const layer = { base: rel, rules: ignore().add(text) };
    this.ignoreFiles.set(rel, { key, layer });
    return layer;
  }
}

function isIgnored(layers: IgnoreLayer[], path: string, isFolder: boolean): boolean {
  return layers.some(({ base, rules }) => {
    const rel = base ? path.slice(base.length + 1) : path;
    return rules.ignores(isFolder ? `${rel}/` : rel);
  });
}

/** A file's identity for change detection (size, time, inode), or '' when it is not there. */
function statKey(path: string): string {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  return stat?.isFile() ? `${stat.size}:${stat.mtimeMs}:${stat.ino}` : '';
}

function fileSize(path: string): number | undefined {
  return lstatSync(path, { throwIfNoEntry: false })?.size;
}

/** `folder` relative to `root` with `/`, when it lies strictly inside it. */
function relativeInside(root: string, folder: string): string | undefined {
  const prefix = root.endsWith(sep) ? root : root + sep;
  if (!folder.startsWith(prefix)) return undefined;
  return folder.slice(prefix.length).split(sep).join('/').replace(/\/$/, '') || undefined;
}
