import { sha256 } from '../edit/content_hash.js';
import { realPathOf } from '../permission/paths.js';

/** How a file stands against what the model last saw of it. */
export type ReadState = 'current' | 'unread' | 'changed';

export interface ReadTrackerOptions {
  /**
   * The calls are the user's own, typed in their shell (`lathe tool NAME`), not the model's: the
   * user has the files in front of them, so a file not read in the runtime counts as current.
   * A file seen here is still checked for changes since.
   */
  callerSeesFiles?: boolean;
}

/**
 * Read-before-edit bookkeeping for one runtime: the content hash of every file as the model last
 * saw it (it read the file whole, or wrote it itself). Edits that need a fresh read check here,
 * by content, so a touched but unchanged file is no reason to refuse. Paths are keyed by their
 * real path: a file reached through a link is the same file.
 */
export class ReadTracker {
  private readonly seen = new Map<string, string>();

  /** `onSeen` hears of every file the model reads or writes (conditional rules join on them). */
  constructor(
    private readonly onSeen?: (path: string) => void,
    private readonly options: ReadTrackerOptions = {},
  ) {}

  /** The model has seen `path` holding these bytes. */
  saw(path: string, content: Uint8Array | string): void {
    this.sawHash(path, sha256(content));
  }

  /** The model has seen `path` holding the content with this sha256. */
  sawHash(path: string, hash: string): void {
    this.seen.set(realPathOf(path), hash);
    this.onSeen?.(path);
  }

  /** The model has seen part of `path` (a slice of a large file, an image, PDF pages): not enough to edit it. */
  sawPart(path: string): void {
    this.onSeen?.(path);
  }

  /** Whether the content with sha256 `hash` now in `path` is what the model last saw there. */
  check(path: string, hash: string): ReadState {
    const seen = this.seen.get(realPathOf(path));
    if (seen === undefined) return this.options.callerSeesFiles === true ? 'current' : 'unread';
    return seen === hash ? 'current' : 'changed';
  }
}
