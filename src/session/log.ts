import * as fs from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { sessionsDir } from '../config/paths.js';
import { diskErrorText } from '../util/disk_error.js';
import { parseEvent, type SessionEvent } from './event.js';
import { newSessionId } from './ids.js';
import { type FileLine, forEachLine, forEachLineBackward } from './lines.js';

export type { SessionEvent } from './event.js';

export interface CreateSessionLogOptions {
  documentsRoot: string;
  workspace: string;
  /** Defaults to a fresh `newSessionId()`. */
  id?: string;
  /** The folder the log goes in; default the workspace's sessions folder. */
  dir?: string;
  /** Whatever describes the run (model, profile, mode, prompt, …); must be JSON-serialisable. */
  meta: Record<string, unknown>;
  /** Told, in one line, when the log can't be written (a full disk); the run goes on without it. */
  onWriteError?: (message: string) => void;
}

export interface OpenSessionLogOptions {
  /** What the resumed run goes on with (model, profile, mode): recorded as `session_resumed`. */
  meta?: Record<string, unknown>;
  onWriteError?: (message: string) => void;
}

/** Above this, an event's big string fields are cut so one record can't bloat the log. */
export const MAX_EVENT_BYTES = 1_000_000;
/** Strings shorter than this are never cut: cutting them would not help much and loses structure. */
const MIN_CUTTABLE_CHARS = 1024;
/** Room left for the truncation note and JSON escaping slack. */
const CUT_MARGIN_BYTES = 256;

/**
 * An append-only JSONL session log. Each `append` is one `writeSync` of a whole line on an fd
 * kept open, so a killed process loses at most the event being written. The fsync that makes the
 * lines survive a crashed machine runs in the background — one at a time, covering every line
 * written before it starts — so that no event waits on the disk; `close` syncs what is left.
 * A write that fails (a full disk) is undone to the last whole line and
 * reported once through `onWriteError`; the session goes on, and later events are saved again
 * once there is room.
 */
export class SessionLog {
  private fd: number | undefined;
  private nextSeq: number;
  /** The file's length after the last whole line: a failed write is cut back to it. */
  private size: number;
  /** A failure is reported once per log: a nearly full disk would otherwise warn at every event. */
  private reported = false;
  private closedByUser = false;
  /** The model, profile and mode of the moment, stamped on each compaction (see `readSessionTail`). */
  private readonly settings: Record<string, unknown> = {};
  /** An fsync is running in the thread pool. */
  private syncing = false;
  /** Lines were written since the running fsync started. */
  private unsynced = false;
  /** Closed while an fsync ran: the fd is closed when it returns. */
  private closeAfterSync?: number;

  private constructor(
    readonly path: string,
    readonly id: string,
    fd: number | undefined,
    nextSeq: number,
    private readonly onWriteError: (message: string) => void = () => {},
  ) {
    this.fd = fd;
    this.nextSeq = nextSeq;
    this.size = fd === undefined ? 0 : fs.fstatSync(fd).size;
  }

  /** Starts a new session log at `sessions/<project-key>/<id>.jsonl` and writes its `session_start`. */
  static create(options: CreateSessionLogOptions): SessionLog {
    const id = options.id ?? newSessionId();
    const dir = options.dir ?? sessionsDir(options.documentsRoot, options.workspace);
    const path = join(dir, `${id}.jsonl`);
    let fd: number;
    try {
      fs.mkdirSync(dir, { recursive: true });
      // 'wx': never clobber an existing session that happens to share the id.
      fd = fs.openSync(path, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw error;
      const log = new SessionLog(path, id, undefined, 0, options.onWriteError);
      log.reportFailure(error);
      return log;
    }
    const log = new SessionLog(path, id, fd, 0, options.onWriteError);
    log.append({ type: 'session_start', id, workspace: options.workspace, meta: options.meta });
    return log;
  }

  /** Reopens an existing log to resume it; new events are appended after the existing ones. */
  static open(path: string, options: OpenSessionLogOptions = {}): SessionLog {
    repairTail(path);
    const { start, lastSeq } = headAndLastSeq(path);
    const id = typeof start?.id === 'string' ? start.id : basename(path, '.jsonl');
    const log = new SessionLog(path, id, fs.openSync(path, 'a'), (lastSeq ?? -1) + 1, options.onWriteError);
    if (start) log.noteSettings(start);
    if (options.meta) log.append({ type: 'session_resumed', meta: options.meta });
    return log;
  }

  /** The folder beside the log for this session's tool-result files and reports. */
  get folder(): string {
    return join(dirname(this.path), this.id);
  }

  get closed(): boolean {
    return this.closedByUser;
  }

  /**
   * Writes one event as one line and syncs it. Adds `time` (ISO) and `seq` when absent. Never
   * throws for the disk's sake: see `onWriteError`.
   */
  append(event: SessionEvent): void {
    if (this.closedByUser) throw new Error(`session log is closed: ${this.path}`);
    this.noteSettings(event);
    // Resuming reads back only to the latest compaction: it must find the settings there too.
    if (event.type === 'compacted_messages' && event.settings === undefined)
      event = { ...event, settings: { ...this.settings } };
    const seq = typeof event.seq === 'number' ? event.seq : this.nextSeq;
    this.nextSeq = Math.max(this.nextSeq, seq + 1);
    if (this.fd === undefined) return;
    const record = { ...event, time: event.time ?? new Date().toISOString(), seq };
    const bytes = Buffer.from(`${fitEvent(record)}\n`, 'utf8');
    try {
      writeFully(this.fd, bytes, this.size);
      this.size += bytes.length;
      this.sync();
    } catch (error) {
      // Never leave half a line: the next event must start on a line of its own.
      try {
        fs.ftruncateSync(this.fd, this.size);
      } catch {
        // the file stays as it is; a reader skips the damaged line with a warning
      }
      this.reportFailure(error);
    }
  }

  /** Starts an fsync, or marks that another is needed when the running one returns. */
  private sync(): void {
    if (this.syncing) {
      this.unsynced = true;
      return;
    }
    const fd = this.fd;
    if (fd === undefined) return;
    this.syncing = true;
    this.unsynced = false;
    fs.fsync(fd, (error) => {
      this.syncing = false;
      if (error) this.reportFailure(error);
      if (this.closeAfterSync !== undefined) {
        fs.close(this.closeAfterSync, () => undefined);
        this.closeAfterSync = undefined;
      } else if (this.unsynced) this.sync();
    });
  }

  private noteSettings(event: SessionEvent): void {
    const source =
      event.type === 'session_start' || event.type === 'session_resumed'
        ? event.meta
        : event.type === 'settings_change' || event.type === 'mode_change'
          ? event
          : undefined;
    if (!source || typeof source !== 'object') return;
    for (const key of ['model', 'profile', 'mode']) {
      const value = (source as Record<string, unknown>)[key];
      if (typeof value === 'string') this.settings[key] = value;
    }
  }

  close(): void {
    if (this.closedByUser) return;
    this.closedByUser = true;
    const fd = this.fd;
    this.fd = undefined;
    if (fd === undefined) return;
    try {
      fs.fsyncSync(fd);
    } catch (error) {
      this.reportFailure(error);
    }
    // The fd must outlive an fsync still running on it in the thread pool.
    if (this.syncing) this.closeAfterSync = fd;
    else fs.closeSync(fd);
  }

  /** The first failure only (see `reported`). */
  private reportFailure(error: unknown): void {
    if (this.reported) return;
    this.reported = true;
    this.onWriteError(
      `session log ${this.path}: could not save (${diskErrorText(error)}); the session goes on, but what is not saved will be missing when it is resumed`,
    );
  }
}

/**
 * `writeSync` may write fewer bytes than asked; loop so a line is never left half-written by us.
 * Writes at the known end of the log, so a write after a cut-back failed one leaves no gap.
 */
function writeFully(fd: number, bytes: Buffer, at: number): void {
  let offset = 0;
  while (offset < bytes.length) offset += fs.writeSync(fd, bytes, offset, bytes.length - offset, at + offset);
}

/** The `session_start` record and the last record's `seq`, read from both ends of the log. */
function headAndLastSeq(path: string): { start?: SessionEvent; lastSeq?: number } {
  let start: SessionEvent | undefined;
  let lastSeq: number | undefined;
  forEachLine(path, (line) => {
    if (line.bytes.length === 0) return;
    const event = line.oversized ? 'too long' : parseEvent(line.bytes.toString('utf8'));
    if (typeof event !== 'string' && event.type === 'session_start') start = event;
    return false;
  });
  forEachLineBackward(path, (line) => {
    if (line.bytes.length === 0 || line.oversized) return;
    const event = parseEvent(line.bytes.toString('utf8'));
    if (typeof event === 'string' || typeof event.seq !== 'number') return;
    lastSeq = event.seq;
    return false;
  });
  return { start, lastSeq };
}

/**
 * Before appending to a log a killed process left behind: drop a torn (unparsable) last line, or
 * end a complete-but-unterminated one, so the next event starts on a line of its own.
 */
function repairTail(path: string): void {
  let last: FileLine | undefined;
  forEachLineBackward(path, (line) => {
    last = line;
    return false;
  });
  if (!last?.unterminated) return;
  if (!last.oversized && isJson(last.bytes.toString('utf8'))) fs.appendFileSync(path, '\n');
  else fs.truncateSync(path, last.start);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** bigint would make `JSON.stringify` throw; a log write must not take the agent down for that. */
function replacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

/**
 * The record's JSON, kept under `MAX_EVENT_BYTES` by cutting its largest strings (tool output and
 * the like are saved as files elsewhere, so the log only needs their head). Falls back to a stub
 * when the bulk is not in strings.
 */
function fitEvent(record: SessionEvent): string {
  let json = JSON.stringify(record, replacer);
  if (Buffer.byteLength(json) <= MAX_EVENT_BYTES) return json;
  const copy = JSON.parse(json) as SessionEvent;
  const truncatedFields: string[] = [];
  for (let attempt = 0; attempt < 32; attempt++) {
    const over = Buffer.byteLength(json) - MAX_EVENT_BYTES;
    if (over <= 0) break;
    const largest = largestString(copy);
    if (!largest || largest.value.length < MIN_CUTTABLE_CHARS) break;
    const { holder, key, value, path } = largest;
    // Estimate bytes per char of this string as encoded in JSON, to cut close to the target at once.
    const ratio = Buffer.byteLength(JSON.stringify(value)) / value.length;
    let keep = Math.max(0, Math.floor(value.length - (over + CUT_MARGIN_BYTES) / ratio));
    keep = Math.min(keep, Math.floor(value.length / 2));
    if (keep > 0 && isHighSurrogate(value.charCodeAt(keep - 1))) keep--;
    const original = value.length;
    (holder as Record<string | number, unknown>)[key] =
      `${value.slice(0, keep)}\n…[truncated by session log: ${original} chars, kept ${keep}]`;
    if (!truncatedFields.includes(path)) truncatedFields.push(path);
    copy.truncatedFields = truncatedFields;
    json = JSON.stringify(copy);
  }
  if (Buffer.byteLength(json) <= MAX_EVENT_BYTES) return json;
  return JSON.stringify({
    type: record.type,
    time: record.time,
    seq: record.seq,
    dropped: `event too large for the session log (${Buffer.byteLength(json)} bytes after truncation)`,
  });
}

interface StringSlot {
  holder: Record<string, unknown> | unknown[];
  key: string | number;
  value: string;
  path: string;
}

function largestString(root: unknown): StringSlot | undefined {
  let best: StringSlot | undefined;
  const visit = (holder: Record<string, unknown> | unknown[], key: string | number, path: string) => {
    const value = (holder as Record<string | number, unknown>)[key];
    if (typeof value === 'string') {
      if (!best || value.length > best.value.length) best = { holder, key, value, path };
    } else if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) visit(value, index, `${path}[${index}]`);
    } else if (value !== null && typeof value === 'object') {
      for (const child of Object.keys(value))
        visit(value as Record<string, unknown>, child, `${path}.${child}`);
    }
  };
  if (root !== null && typeof root === 'object') {
    for (const key of Object.keys(root)) visit(root as Record<string, unknown>, key, key);
  }
  return best;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
