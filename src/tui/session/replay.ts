import { readAgentEvent, type StoredAgentEvent } from '../../agent/stored_events.js';
import type { SessionEvent } from '../../session/log.js';
import { showsOwnEntry } from '../render/tool_facts.js';
import type { TranscriptEntry } from '../state/items.js';
import './tool_catalogue.js';

/** Entries shown when a session is resumed: the end of it (the rest is in `lathe sessions show`). */
export const REPLAYED_ENTRIES = 120;

const str = (value: unknown) => (typeof value === 'string' ? value : '');

/** The conversation of a session log, as the UI shows it. */
export function replayEntries(
  events: SessionEvent[],
  limit = REPLAYED_ENTRIES,
  cwd?: string,
): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  const calls = new Map<string, { name: string; input: unknown }>();
  for (const stored of events) {
    const entry = entryOf(readAgentEvent(stored), calls, cwd);
    if (entry) entries.push(entry);
  }
  if (entries.length <= limit) return entries;
  const hidden = entries.length - limit;
  return [
    { kind: 'notice', tone: 'info', text: `… ${hidden} earlier entries (see them with lathe sessions show)` },
    ...entries.slice(-limit),
  ];
}

/** The entry a stored event shows as; `calls` keeps each call's input for its result. */
function entryOf(
  event: StoredAgentEvent,
  calls: Map<string, { name: string; input: unknown }>,
  cwd: string | undefined,
): TranscriptEntry | undefined {
  switch (event.type) {
    case 'user_message':
      return { kind: 'user', text: event.text, queued: event.queued === true };
    case 'assistant_text':
      if (event.text.trim()) return { kind: 'assistant', markdown: event.text };
      break;
    case 'tool_call':
      calls.set(str(event.id), { name: str(event.name), input: event.input });
      break;
    case 'tool_result': {
      const call = calls.get(str(event.id));
      const { name, result } = event;
      if (showsOwnEntry(name) && !result.isError) break;
      return {
        kind: 'tool',
        tool: {
          id: str(event.id),
          name,
          input: call?.input,
          status: result.isError ? 'error' : 'ok',
          resultText: str(result.text),
          cwd,
        },
      };
    }
    case 'working':
      return { kind: 'working', text: event.message };
    case 'plan':
      return { kind: 'plan', markdown: event.markdown };
    case 'report':
      return {
        kind: 'report',
        title: str(event.title),
        markdown: str(event.markdown),
        path: str(event.path),
      };
    case 'phase_report':
      return { kind: 'phase', phase: str(event.phase), markdown: str(event.markdown) };
    case 'question':
      return { kind: 'question', question: str(event.question), answer: str(event.answer) };
    case 'error':
      return { kind: 'notice', tone: 'error', text: event.message };
    case 'done': {
      const outcome = event.outcome;
      if (outcome.kind === 'completed' || outcome.kind === 'answered')
        return { kind: 'result', markdown: str(outcome.text) };
      break;
    }
    // Bookkeeping, the model's own messages and what the transcript does not show again.
    case 'session_start':
    case 'session_resumed':
    case 'settings_change':
    case 'session_end':
    case 'model_message':
    case 'compacted_messages':
    case 'request_start':
    case 'tool_start':
    case 'retry':
    case 'mode_change':
    case 'compaction':
    case 'notice':
    case 'subagent':
    case 'todo':
    case 'brief':
    case 'user_file':
    case 'notification':
    case 'approval_request':
    case 'approval_answer':
    case 'unknown':
      break;
    default:
      event satisfies never;
  }
  return undefined;
}
