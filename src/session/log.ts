import * as fs from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { sessionsDir } from '../config/paths.js';
import { newSessionId } from './ids.js';
import { readSessionLog } from './read.js';

/** One record of a session log. Generic on purpose: the store does not know the agent's event types. */
export type SessionEvent = { type: string; [key: string]: unknown };

export interface CreateSessionLogOptions {
  documentsRoot: string;
  workspace: string;
  /** Defaults to a fresh `newSessionId()`. */
  id?: string;
  /** Whatever describes the run (model, profile, mode, prompt, …); must be JSON-serialisable. */
  meta: Record<string, unknown>;
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
 */
export class SessionLog {
  private fd: number | undefined;
  private nextSeq: number;
  /** An fsync is running in the thread pool. */
  private syncing = false;
  /** Lines were written since the running fsync started. */
  private unsynced = false;
  /** Closed while an fsync ran: the fd is closed when it returns. */
  private closeAfterSync?: number;

  private constructor(
    readonly path: string,
    readonly id: string,
    fd: number,
    nextSeq: number,
  ) {
    this.fd = fd;
    this.nextSeq = nextSeq;
  }

  /** Starts a new session log at `sessions/<project-key>/<id>.jsonl` and writes its `session_start`. */
  static create(options: CreateSessionLogOptions): SessionLog {
    const id = options.id ?? newSessionId();
    const dir = sessionsDir(options.documentsRoot, options.workspace);
    fs.mkdirSync(dir, { recursive: true });
    const path = join(dir, `${id}.jsonl`);
    // 'wx': never clobber an existing session that happens to share the id.
    const fd = fs.openSync(path, 'wx', 0o600);
    const log = new SessionLog(path, id, fd, 0);
    log.append({ type: 'session_start', id, workspace: options.workspace, meta: options.meta });
    return log;
  }

  /** Reopens an existing log to resume it; new events are appended after the existing ones. */
  static open(path: string): SessionLog {
    const { events } = readSessionLog(path);
    repairTail(path);
    const start = events.find((event) => event.type === 'session_start');
    const id = typeof start?.id === 'string' ? start.id : basename(path, '.jsonl');
    let nextSeq = 0;
    for (const event of events) {
      if (typeof event.seq === 'number' && event.seq >= nextSeq) nextSeq = event.seq + 1;
    }
    nextSeq = Math.max(nextSeq, events.length);
    return new SessionLog(path, id, fs.openSync(path, 'a'), nextSeq);
  }

  /** The folder beside the log for this session's tool-result files and reports. */
  get folder(): string {
    return join(dirname(this.path), this.id);
  }

  get closed(): boolean {
    return this.fd === undefined;
  }

  /** Writes one event as one line and syncs it. Adds `time` (ISO) and `seq` when absent. */
  append(event: SessionEvent): void {
    if (this.fd === undefined) throw new Error(`session log is closed: ${this.path}`);
    const seq = typeof event.seq === 'number' ? event.seq : this.nextSeq;
    this.nextSeq = Math.max(this.nextSeq, seq + 1);
    const record = { ...event, time: event.time ?? new Date().toISOString(), seq };
    const line = `${fitEvent(record)}\n`;
    writeFully(this.fd, Buffer.from(line, 'utf8'));
    this.sync();
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
    fs.fsync(fd, () => {
      this.syncing = false;
      if (this.closeAfterSync !== undefined) {
        fs.close(this.closeAfterSync, () => undefined);
        this.closeAfterSync = undefined;
      } else if (this.unsynced) this.sync();
    });
  }

  /** Syncs every line written (it is on disk when this returns) and closes the log. */
  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    fs.fsyncSync(fd);
    // The fd must outlive an fsync still running on it in the thread pool.
    if (this.syncing) this.closeAfterSync = fd;
    else fs.closeSync(fd);
  }
}

/** `writeSync` may write fewer bytes than asked; loop so a line is never left half-written by us. */
function writeFully(fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) offset += fs.writeSync(fd, bytes, offset, bytes.length - offset);
}

/**
 * Before appending to a log a killed process left behind: drop a torn (unparsable) last line, or
 * end a complete-but-unterminated one, so the next event starts on a line of its own.
 */
function repairTail(path: string): void {
  const content = fs.readFileSync(path);
  if (content.length === 0 || content[content.length - 1] === 0x0a) return;
  const lineStart = content.lastIndexOf(0x0a) + 1;
  const tail = content.subarray(lineStart).toString('utf8');
  if (isJson(tail)) fs.appendFileSync(path, '\n');
  else fs.truncateSync(path, lineStart);
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
