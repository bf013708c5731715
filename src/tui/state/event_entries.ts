import type { AgentEvent } from '../../agent/events.js';
import { formatElapsed } from '../render/tool_line.js';
import type { UiStore } from './store.js';

type EventOf<K extends AgentEvent['type']> = Extract<AgentEvent, { type: K }>;
type Show<K extends AgentEvent['type']> = (store: UiStore, event: EventOf<K>) => void;

const info = (store: UiStore, text: string) => store.add({ kind: 'notice', tone: 'info', text });

/**
 * The events that only add to the transcript (and set the status line), by kind. The agent's
 * own turns, its tool calls, spend and children are `AgentEventView`'s; a kind in neither shows
 * nothing.
 */
const SHOWS: { [K in AgentEvent['type']]?: Show<K> } = {
  retry: (store, event) =>
    store.add({
      kind: 'notice',
      tone: 'warn',
      text: `${event.message} — retrying in ${formatElapsed(event.delayMs)} (attempt ${event.attempt})`,
    }),
  mode_change: (store, event) => {
    store.setStatus({ mode: event.mode, autoEdits: false });
    info(store, event.mode === 'plan' ? 'Now in Plan mode' : 'Now in Act mode');
  },
  working: (store, event) => store.add({ kind: 'working', text: event.message }),
  phase_report: (store, event) => store.add({ kind: 'phase', phase: event.phase, markdown: event.markdown }),
  report: (store, event) =>
    store.add({ kind: 'report', title: event.title, markdown: event.markdown, path: event.path }),
  plan: (store, event) => {
    store.settleText();
    store.add({ kind: 'plan', markdown: event.markdown });
  },
  question: (store, event) => store.add({ kind: 'question', question: event.question, answer: event.answer }),
  compaction: (store, event) => {
    info(store, `The conversation was compacted (it had ${event.before.toLocaleString('en-US')} tokens).`);
    store.setStatus({ contextTokens: 0 });
  },
  notice: (store, event) => info(store, event.message),
  brief: (store, event) => {
    store.setStatus({ brief: event.on });
    info(store, event.on ? 'Brief mode on: replies are kept short' : 'Brief mode off');
  },
  user_file: (store, event) =>
    info(
      store,
      `File for you: ${event.absolutePath} (${event.bytes.toLocaleString('en-US')} bytes)${event.caption ? ` — ${event.caption}` : ''}`,
    ),
  notification: (store, event) => info(store, `Notification: ${event.title} — ${event.body}`),
  error: (store, event) => store.add({ kind: 'notice', tone: 'error', text: event.message }),
};

/** Shows an event of the kinds above; any other kind shows nothing here. */
export function showEvent(store: UiStore, event: AgentEvent): void {
  const show = SHOWS[event.type] as Show<AgentEvent['type']> | undefined;
  show?.(store, event);
}
