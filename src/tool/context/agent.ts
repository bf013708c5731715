import type { Mode } from '../../config/types.js';
import type { ToolEvent } from '../events.js';
import type { PendingNotes } from '../pending_notes.js';

/** What the conversation tools need from the agent running them; absent when a tool runs alone. */
export interface AgentInteraction {
  readonly mode: Mode;
  /** Asks the user a question; headless runs answer from --answers or say no user is present. */
  ask(question: string, options?: string[]): Promise<{ answer: string; present: boolean }>;
  /** Asks the user to approve a plan or acknowledge a phase. */
  confirm(request: { kind: 'plan' | 'phase' | 'todo'; title: string; body: string }): Promise<{
    approved: boolean;
    feedback?: string;
  }>;
  /** Shows the user something: a report, a status line, a plan. */
  emit(event: ToolEvent): void;
  /** Ends the run after this batch of calls; `structured` is an accepted structured_output object. */
  finish(outcome: { kind: 'completion' | 'answer' | 'stopped'; text: string; structured?: unknown }): void;
  setMode(mode: Mode): void;
  /** The mode before Plan mode was entered, to return to. */
  readonly previousMode: Mode;
  /** The JSON Schema the final answer must match (headless --json-schema). */
  readonly jsonSchema?: Record<string, unknown>;
  /** The model the agent runs on (`provider/model`), for runs it starts (spawn_task). */
  readonly modelName?: string;
  /** Calls `release` when the user's prompt that is running ends (a skill's tools are granted until then). */
  onPromptEnd(release: () => void): void;
  /** Queues a note for the model's next request (a webhook delivery), of this prompt or the next. */
  notify?(text: string): void;
  /** What calls started that comes in later (an edit's diagnostics): the next result or request carries it. */
  readonly pendingNotes?: PendingNotes;
}
