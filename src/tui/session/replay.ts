import { readAgentEvent } from '../../agent/stored_events.js';
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
    const event = readAgentEvent(stored);
    switch (event.type) {
      case 'user_message':
        entries.push({ kind: 'user', text: event.text, queued: event.queued === true });
        break;
      case 'assistant_text':
        if (event.text.trim()) entries.push({ kind: 'assistant', markdown: event.text });
        break;
      case 'tool_call':
        calls.set(str(event.id), { name: str(event.name), input: event.input });
        break;
      case 'tool_result': {
        const call = calls.get(str(event.id));
        const name = event.name;
        const result = event.result;
        if (showsOwnEntry(name) && !result.isError) break;
        entries.push({
          kind: 'tool',
          tool: {
            id: str(event.id),
            name,
            input: call?.input,
            status: result.isError ? 'error' : 'ok',
            resultText: str(result.text),
            cwd,
          },
        });
        break;
      }
      case 'working':
        entries.push({ kind: 'working', text: event.message });
        break;
      case 'plan':
        entries.push({ kind: 'plan', markdown: event.markdown });
        break;
      case 'report':
        entries.push({
          kind: 'report',
          title: str(event.title),
          markdown: str(event.markdown),
          path: str(event.path),
        });
        break;
      case 'phase_report':
        entries.push({ kind: 'phase', phase: str(event.phase), markdown: str(event.markdown) });
        break;
      case 'question':
        entries.push({ kind: 'question', question: str(event.question), answer: str(event.answer) });
        break;
      case 'error':
        entries.push({ kind: 'notice', tone: 'error', text: event.message });
        break;
      case 'done': {
        const outcome = event.outcome;
        if (outcome.kind === 'completed' || outcome.kind === 'answered')
          entries.push({ kind: 'result', markdown: str(outcome.text) });
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
  }
  if (entries.length <= limit) return entries;
  const hidden = entries.length - limit;
  return [
    { kind: 'notice', tone: 'info', text: `… ${hidden} earlier entries (see them with lathe sessions show)` },
    ...entries.slice(-limit),
  ];
}
