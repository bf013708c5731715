import type { SessionEvent } from '../session/event.js';
import { type KindFields, readStoredEvent, type StoredEvent } from '../session/stored_event.js';
import type { AgentRecord } from './session_record.js';

/** A session log's line as every reader of stored events switches over it. */
export type StoredAgentEvent = StoredEvent<AgentRecord>;

/** Each kind a run records, with the fields its readers need (see `KindFields`). */
const RECORDED_FIELDS: KindFields<AgentRecord> = {
  user_message: { text: 'string' },
  request_start: {},
  assistant_text: { text: 'string' },
  tool_call: { name: 'string' },
  tool_start: {},
  tool_result: { name: 'string', result: 'object' },
  retry: {},
  mode_change: { mode: 'string' },
  question: {},
  compaction: {},
  notice: { message: 'string' },
  error: { message: 'string' },
  done: { outcome: 'object' },
  subagent: { child: 'object', event: 'object' },
  working: { message: 'string' },
  plan: { markdown: 'string' },
  phase_report: { markdown: 'string' },
  report: { markdown: 'string' },
  todo: {},
  brief: {},
  user_file: { absolutePath: 'string' },
  notification: {},
  approval_request: {},
  approval_answer: {},
  model_message: { message: 'object' },
  compacted_messages: {},
};

/** One stored line, or a record read from one, as a `StoredAgentEvent`; never throws. */
export function readAgentEvent(input: string | SessionEvent): StoredAgentEvent {
  return readStoredEvent(input, RECORDED_FIELDS);
}
