import type { Mode } from '../config/types.js';
import type { AgentInteraction } from '../tool/context/agent.js';
import type { PendingNotes } from '../tool/pending_notes.js';
import type { AgentOptions } from './agent_options.js';
import type { AgentRuntime } from './agent_runtime.js';
import type { AgentEvent } from './events.js';

/** How a tool ended the run (attempt_completion, an answer, a stop). */
export type Finished = Parameters<AgentInteraction['finish']>[0];

/** The agent's mode as tools change it, and the mode before Plan mode, to return to. */
export class AgentModes {
  private before: Mode;

  constructor(
    private readonly runtime: AgentRuntime,
    private readonly emit: (event: AgentEvent) => void,
  ) {
    this.before = runtime.conditions.mode === 'plan' ? 'act' : runtime.conditions.mode;
  }

  get previous(): Mode {
    return this.before;
  }

  set(mode: Mode): void {
    const { runtime } = this;
    if (mode === runtime.conditions.mode) return;
    if (mode === 'plan') this.before = runtime.conditions.mode;
    runtime.setMode(mode);
    this.emit({ type: 'mode_change', mode });
  }
}

/** What the tools' side of the agent is made of. */
export interface InteractionHost {
  readonly options: AgentOptions;
  readonly modes: AgentModes;
  readonly pendingNotes: PendingNotes;
  emit(event: AgentEvent): void;
  notify(text: string): void;
  finish(outcome: Finished): void;
  /** `release` is called when the running prompt ends. */
  onPromptEnd(release: () => void): void;
}

/** The agent as the conversation tools see it: the user to ask, the mode, the run to finish. */
export function agentInteraction(host: InteractionHost): AgentInteraction {
  const { runtime, user } = host.options;
  return {
    get mode() {
      return runtime.conditions.mode;
    },
    get previousMode() {
      return host.modes.previous;
    },
    jsonSchema: host.options.jsonSchema,
    modelName: host.options.modelName,
    ask: async (question, options) => {
      const answer = await user.ask(question, options);
      host.emit({ type: 'question', question, options, answer: answer.answer });
      return answer;
    },
    confirm: (request) => user.confirm(request),
    emit: (event) => host.emit(event),
    finish: (outcome) => host.finish(outcome),
    onPromptEnd: (release) => host.onPromptEnd(release),
    notify: (text) => host.notify(text),
    pendingNotes: host.pendingNotes,
    setMode: (mode) => host.modes.set(mode),
  };
}
