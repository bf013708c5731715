import { byCodeUnits } from '../util/code_unit_order.js';
import type { FileMode } from './fast_import.js';
import type { SkippedFile } from './walk.js';

/** Why a checkpoint was taken: before a prompt, before a call that may change files, before a restore. */
export type CheckpointKind = 'turn' | 'call' | 'restore';

/** Where a conversation stood at a turn's checkpoint, so /rewind can take it back there too. */
export interface ConversationMark {
  session: string;
  /** How many messages came before the prompt. */
  messages: number;
  /** A hash of the last of them: the conversation still begins the same way (no compaction since). */
  anchor: string;
}

/** What a checkpoint's commit message holds, besides its tree. */
export interface CheckpointMeta {
  kind: CheckpointKind;
  /** The prompt's first line, the call (`execute_command: npm test`), or the checkpoint restored. */
  label: string;
  /** Milliseconds since the epoch. */
  at: number;
  session?: string;
  conversation?: ConversationMark;
  /** For a restore's checkpoint: the commit it restored (a following /undo goes on from there). */
  restored?: string;
  /** Files left out (too large, unreadable); at most `MAX_LISTED` are named. */
  skipped?: SkippedFile[];
  skippedCount?: number;
  /**
   * For a checkpoint of some files only: each file as it was (null: it was not there). A turn's
   * checkpoint holds none: it marks where the prompt began.
   */
  files?: Record<string, FileRecord | null>;
}

/** A file as a checkpoint of some files holds it: its mode and blob. */
export type FileRecord = [mode: FileMode, sha: string];

/**
 * What a checkpoint holds: the whole tree (every file the walk finds), or the files it names
 * alone (saved before an edit, or none: the start of a prompt).
 */
export type CheckpointScope = 'tree' | 'files';

/** One checkpoint of a workspace. */
export interface Checkpoint extends CheckpointMeta {
  /** The short commit id users name it by. */
  id: string;
  commit: string;
  tree: string;
  ref: string;
  scope: CheckpointScope;
}

/** Skipped files named in a checkpoint; the rest are counted. */
const MAX_LISTED = 20;

/** Checkpoints are refs under here, named so that their order is their names' order. */
export const REF_PREFIX = 'refs/lathe/checkpoints/';

/** The end of the ref of a checkpoint of some files: a process tells them from trees by the ref alone. */
const FILES_SUFFIX = '-files';

export function refFor(at: number, unique: string, scope: CheckpointScope): string {
  return `${REF_PREFIX}${String(at).padStart(15, '0')}-${unique}${scope === 'files' ? FILES_SUFFIX : ''}`;
}

export const scopeOf = (ref: string): CheckpointScope => (ref.endsWith(FILES_SUFFIX) ? 'files' : 'tree');

/** Milliseconds since the epoch when the checkpoint of `ref` was taken. */
export const refTime = (ref: string): number => Number(ref.slice(REF_PREFIX.length).split('-')[0]);

/** The commit message: a readable first line, then the metadata as one JSON line. */
export function commitMessage(meta: CheckpointMeta): string {
  const skipped = meta.skipped ?? [];
  const stored: CheckpointMeta = {
    ...meta,
    ...(skipped.length > 0
      ? { skipped: skipped.slice(0, MAX_LISTED), skippedCount: meta.skippedCount ?? skipped.length }
      : { skipped: undefined }),
  };
  const first = `lathe checkpoint (${meta.kind}): ${meta.label.split('\n')[0].slice(0, 100)}`;
  return `${first}\n\n${JSON.stringify(stored)}\n`;
}

/** The format `git for-each-ref` lists checkpoints in: fields split by NUL, records by SOH. */
export const LIST_FORMAT = '%(refname)%00%(objectname)%00%(tree)%00%(contents:body)%01';

/** The checkpoints `git for-each-ref --format=LIST_FORMAT` printed, oldest first. */
export function parseListing(text: string): Checkpoint[] {
  const found: Checkpoint[] = [];
  for (const record of text.split('\x01')) {
    const [ref, commit, tree, body] = record.replace(/^\n/, '').split('\0');
    if (!ref || !commit || !tree) continue;
    const meta = parseMeta(body ?? '');
    if (meta) found.push({ ...meta, id: commit.slice(0, 8), commit, tree, ref, scope: scopeOf(ref) });
  }
  return found.sort((a, b) => byCodeUnits(a.ref, b.ref));
}

function parseMeta(body: string): CheckpointMeta | undefined {
  try {
    const value = JSON.parse(body.trim()) as CheckpointMeta;
    if (typeof value.label !== 'string' || typeof value.at !== 'number') return undefined;
    if (!['turn', 'call', 'restore'].includes(value.kind)) return undefined;
    return value;
  } catch {
    return undefined;
  }
}
