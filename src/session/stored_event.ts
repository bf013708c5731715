import { parseEvent, type SessionEvent } from './event.js';

/** The kinds only a session log holds: its start, each resume, a settings change, its end. */
export type LogOnlyEvent =
  | { type: 'session_start'; id?: string; workspace?: string; meta?: Record<string, unknown> }
  | { type: 'session_resumed'; meta?: Record<string, unknown> }
  | { type: 'settings_change'; model?: string; profile?: string; mode?: string }
  | { type: 'session_end'; reason?: string; usage?: unknown; costUsd?: number; status?: string };

/** A stored line no reader can read (an old kind, a damaged record); readers skip it. */
export interface UnknownEntry {
  type: 'unknown';
  /** Why it could not be read, in a few words. */
  reason: string;
  /** The record, when the line was a JSON object. */
  entry?: SessionEvent;
}

/** What the log adds to every record it writes. */
interface Stamps {
  time?: string;
  seq?: number;
}

/** A stored line as its readers see it: one of the kinds `E` the writer records, a log-only kind, or unknown. */
export type StoredEvent<E extends { type: string }> = ((E | LogOnlyEvent) & Stamps) | UnknownEntry;

type FieldType = 'string' | 'number' | 'boolean' | 'object';

/**
 * The fields a kind's readers need, each with its type; a field left out may be missing (old logs
 * lack it) and is read defensively.
 */
export type KindFields<E extends { type: string }> = {
  readonly [K in E['type']]: Readonly<Record<string, FieldType>>;
};

const LOG_ONLY_FIELDS: KindFields<LogOnlyEvent> = {
  session_start: {},
  session_resumed: {},
  settings_change: {},
  session_end: {},
};

/**
 * Reads one stored line (or a record already parsed from one) into the one event type: the kind
 * must be one `kinds` or the log knows, with the fields that kind needs; anything else is an
 * `UnknownEntry`. Never throws.
 */
export function readStoredEvent<E extends { type: string }>(
  input: string | SessionEvent,
  kinds: KindFields<E>,
): StoredEvent<E> {
  const record = typeof input === 'string' ? parseEvent(input) : input;
  if (typeof record === 'string') return { type: 'unknown', reason: record };
  const fields = fieldsOf(kinds, record.type) ?? fieldsOf(LOG_ONLY_FIELDS, record.type);
  if (!fields) return { type: 'unknown', reason: `unknown kind "${record.type}"`, entry: record };
  for (const [name, type] of Object.entries(fields)) {
    if (!hasType(record[name], type))
      return { type: 'unknown', reason: `${record.type} without a ${type} "${name}"`, entry: record };
  }
  return record as StoredEvent<E>;
}

function fieldsOf(
  kinds: Readonly<Record<string, Readonly<Record<string, FieldType>>>>,
  type: string,
): Readonly<Record<string, FieldType>> | undefined {
  return Object.hasOwn(kinds, type) ? kinds[type] : undefined;
}

function hasType(value: unknown, type: FieldType): boolean {
  if (type === 'object') return value !== null && typeof value === 'object' && !Array.isArray(value);
  return typeof value === type;
}
