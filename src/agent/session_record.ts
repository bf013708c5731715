import type { SessionEvent } from '../session/event.js';
import type { AgentEvent } from './events.js';
import type { ConversationMessage } from './model_stream.js';

/** The per-token pieces and ticks a log leaves out (the whole text and reasoning are kept). */
const UNRECORDED_TYPES = ['text_delta', 'thinking_delta', 'usage', 'tool_progress'] as const;
type Unrecorded = (typeof UNRECORDED_TYPES)[number];
const UNRECORDED: ReadonlySet<string> = new Set(UNRECORDED_TYPES);

/** The agent events a session log keeps: all but the per-token deltas, usage and progress ticks. */
export type RecordedAgentEvent = Exclude<AgentEvent, { type: Unrecorded }>;

/**
 * What a run writes to its session log: the events clients saw, and the conversation itself
 * (each message, and the conversation that replaced the old one at a compaction), which resume
 * reads back.
 */
export type AgentRecord =
  | RecordedAgentEvent
  | { type: 'model_message'; message: ConversationMessage }
  | { type: 'compacted_messages'; messages: ConversationMessage[] };

/** Where a run's records go: its session log. */
export interface SessionRecorder {
  append(record: SessionEvent): void;
}

export function isRecorded(event: AgentEvent): event is RecordedAgentEvent {
  // A child's events are kept as the child's own are: its deltas and usage ticks are not.
  if (event.type === 'subagent') return isRecorded(event.event);
  return !UNRECORDED.has(event.type);
}

/** The session log's form of an agent record: the record itself, as resume and export read it. */
export function sessionRecord(record: AgentRecord): SessionEvent {
  return record;
}

/**
 * Records an agent event when the log keeps that kind: the one place that decides it, for the
 * headless run and the interactive session alike.
 */
export function recordAgentEvent(log: SessionRecorder | undefined, event: AgentEvent): void {
  if (log && isRecorded(event)) log.append(sessionRecord(event));
}

/** Records one message of the conversation. */
export function recordMessage(log: SessionRecorder | undefined, message: ConversationMessage): void {
  log?.append(sessionRecord({ type: 'model_message', message }));
}

/** Records the conversation a compaction left, which resume starts from. */
export function recordCompaction(log: SessionRecorder | undefined, messages: ConversationMessage[]): void {
  log?.append(sessionRecord({ type: 'compacted_messages', messages }));
}
