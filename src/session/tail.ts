import { parseEvent, type SessionEvent } from './event.js';
import { type FileLine, forEachLine, forEachLineBackward } from './lines.js';

/** What a session ran with last: resuming without flags goes on with the same. */
export interface SessionSettings {
  model?: string;
  profile?: string;
  mode?: string;
}

/** What resuming a session needs from its log. */
export interface SessionTail {
  /** The `session_start` record, when the log has one. */
  start?: SessionEvent;
  /**
   * The records the conversation is rebuilt from, oldest first: the latest `compacted_messages`
   * (when the session was compacted) and every `model_message` after it.
   */
  conversation: SessionEvent[];
  settings: SessionSettings;
  /** The last events worth showing (messages, tool calls and results, plans, reports), oldest first. */
  recent: SessionEvent[];
  /** One line per damaged record that was skipped. */
  warnings: string[];
  /** The `seq` of the last record, so appends go on from it. */
  lastSeq?: number;
}

/** Events kept for showing the end of a resumed conversation, at most so many bytes of them. */
export const RECENT_EVENTS = 400;
const RECENT_BYTES = 8 * 1024 * 1024;

const CONVERSATION = new Set(['model_message', 'compacted_messages']);
const SETTINGS = new Set(['session_start', 'session_resumed', 'settings_change', 'mode_change']);
/** Bookkeeping events: nothing to show. */
const NOT_SHOWN = new Set([
  ...CONVERSATION,
  ...SETTINGS,
  'request_start',
  'tool_start',
  'done',
  'session_end',
]);
/** The log writes `type` first, so most lines are sorted without parsing them. */
const TYPE_AT_START = /^\{"type":"([A-Za-z0-9_]+)"/;

/**
 * Reads a session log from its end: back to its latest compaction for the conversation, and only
 * as far as the latest settings and the last `RECENT_EVENTS` shown events need. Lines are sorted
 * by their leading `type` and parsed only when needed, so a log of any size resumes quickly and
 * never becomes one string. Damaged records in the part that is needed are skipped with a warning.
 */
export function readSessionTail(path: string): SessionTail {
  const start = firstRecord(path);
  const conversation: SessionEvent[] = [];
  const recent: SessionEvent[] = [];
  const warnings: string[] = [];
  const settings: SessionSettings = {};
  let conversationDone = false;
  let recentBytes = 0;
  const recentFull = () => recent.length >= RECENT_EVENTS || recentBytes >= RECENT_BYTES;
  let lastSeq: number | undefined;
  let seenRecord = false;
  const settingsDone = () =>
    settings.model !== undefined && settings.profile !== undefined && settings.mode !== undefined;
  const skip = (line: FileLine, why: string) => {
    // A torn last line is a write cut short by a kill: the log's writer drops it, no news.
    if (line.unterminated || conversationDone) return;
    warnings.push(`session log: skipped a damaged record at byte ${line.start} (${why})`);
  };

  forEachLineBackward(path, (line) => {
    if (line.oversized) return skip(line, 'too long');
    if (line.bytes.length === 0) return;
    const type = TYPE_AT_START.exec(line.bytes.subarray(0, 64).toString('latin1'))?.[1];
    const needed =
      type === undefined ||
      !seenRecord ||
      (CONVERSATION.has(type) && !conversationDone) ||
      (SETTINGS.has(type) && !settingsDone()) ||
      (type === 'compacted_messages' && !settingsDone()) ||
      (!NOT_SHOWN.has(type) && !recentFull());
    if (!needed) return;
    const event = parseEvent(line.bytes.toString('utf8'));
    if (typeof event === 'string') return skip(line, event);
    if (!seenRecord) {
      seenRecord = true;
      if (typeof event.seq === 'number') lastSeq = event.seq;
    }
    if (CONVERSATION.has(event.type)) {
      // The log stamps each compaction with the settings of the moment.
      if (event.type === 'compacted_messages') fillSettings(settings, event);
      if (conversationDone) return;
      conversation.push(event);
      if (event.type === 'compacted_messages' && Array.isArray(event.messages)) conversationDone = true;
    } else if (SETTINGS.has(event.type)) {
      fillSettings(settings, event);
    } else if (!NOT_SHOWN.has(event.type) && !recentFull()) {
      recent.push(event);
      recentBytes += line.bytes.length;
    }
    if (conversationDone && settingsDone() && recentFull()) return false;
  });
  if (start) fillSettings(settings, start);
  conversation.reverse();
  recent.reverse();
  return { ...(start ? { start } : {}), conversation, settings, recent, warnings, lastSeq };
}

/** Fills the settings not yet known (the newest event wins, as they are read backwards). */
function fillSettings(settings: SessionSettings, event: SessionEvent): void {
  const meta = (
    event.type === 'session_start' || event.type === 'session_resumed'
      ? event.meta
      : event.type === 'compacted_messages'
        ? event.settings
        : event
  ) as Record<string, unknown> | undefined;
  if (!meta || typeof meta !== 'object') return;
  for (const key of ['model', 'profile', 'mode'] as const) {
    if (settings[key] === undefined && typeof meta[key] === 'string') settings[key] = meta[key];
  }
}

/** The log's `session_start`, read from its first line. */
function firstRecord(path: string): SessionEvent | undefined {
  let start: SessionEvent | undefined;
  forEachLine(path, (line) => {
    if (line.bytes.length === 0) return;
    if (!line.oversized) {
      const event = parseEvent(line.bytes.toString('utf8'));
      if (typeof event !== 'string' && event.type === 'session_start') start = event;
    }
    return false;
  });
  return start;
}
