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
  for (const event of events) {
    switch (event.type) {
      case 'user_message':
        entries.push({ kind: 'user', text: str(event.text), queued: event.queued === true });
        break;
      case 'assistant_text':
        if (str(event.text).trim()) entries.push({ kind: 'assistant', markdown: str(event.text) });
        break;
      case 'tool_call':
        calls.set(str(event.id), { name: str(event.name), input: event.input });
        break;
      case 'tool_result': {
        const call = calls.get(str(event.id));
        const name = str(event.name);
        const result = (event.result ?? {}) as { isError?: boolean; text?: string };
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
        entries.push({ kind: 'working', text: str(event.message) });
        break;
      case 'plan':
        entries.push({ kind: 'plan', markdown: str(event.markdown) });
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
        entries.push({ kind: 'notice', tone: 'error', text: str(event.message) });
        break;
      case 'done': {
        const outcome = (event.outcome ?? {}) as { kind?: string; text?: string };
        if (outcome.kind === 'completed' || outcome.kind === 'answered')
          entries.push({ kind: 'result', markdown: str(outcome.text) });
        break;
      }
      default:
        break;
    }
  }
  if (entries.length <= limit) return entries;
  const hidden = entries.length - limit;
  return [
    { kind: 'notice', tone: 'info', text: `… ${hidden} earlier entries (see them with lathe sessions show)` },
    ...entries.slice(-limit),
  ];
}
