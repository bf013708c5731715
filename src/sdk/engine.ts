import type { LanguageModelV3, SharedV3ProviderOptions } from '@ai-sdk/provider';
import { Agent, type UserSide } from '../agent/agent.js';
import type { AgentEvent, AgentOutcome } from '../agent/events.js';
import type { ConversationMessage } from '../agent/model_stream.js';
import type { SpendBudget } from '../agent/run_limits.js';
import { recordAgentEvent, recordCompaction, recordMessage } from '../agent/session_record.js';
import type { ModelSource } from '../agent/subagents/child_model.js';
import type { Effort } from '../config/types.js';
import type { ModelCapabilities } from '../provider/capabilities.js';
import type { Runtime } from '../runtime/create_runtime.js';
import type { SessionLog } from '../session/log.js';
import type { ContextReport } from '../tool/context/conversation.js';
import type { ImageBlock } from '../tool/types.js';

/** A model ready to use, with what it can do. */
export interface EngineModel {
  modelName: string;
  capabilities: ModelCapabilities;
  model: LanguageModelV3;
  providerOptions?: SharedV3ProviderOptions;
  /** The effort the flags or settings chose. */
  effort?: Effort;
  /** The request options for another effort level (`/effort`). */
  optionsForEffort?(effort: Effort | undefined): SharedV3ProviderOptions | undefined;
  /** The models child agents run when their type or call names another one. */
  childModels?: ModelSource;
}

/** What a conversation runs on; the runtime and the log are read at each use, as a client may replace them. */
export interface EngineOptions {
  runtime(): Runtime;
  /** The session log records go to; undefined while none is open. */
  log(): SessionLog | undefined;
  /** Who answers the model's questions and plan approvals. */
  user: UserSide;
  /** The user's instructions: `replace` stands for lathe's system prompt, `append` follows it. */
  systemPrompt?: { replace?: string; append?: string };
  maxTurns?: number;
  /** What the conversation may spend; each agent checks it with what the others spent. */
  budget?: SpendBudget;
  jsonSchema?: Record<string, unknown>;
  /** The environment for the system prompt, read early by the client (a runtime that stays). */
  environment?: Promise<string>;
  retryBaseMs?: number;
  /** Each event, after the log recorded it. */
  onEvent(event: AgentEvent): void;
  /** Each message added to the conversation, after the log recorded it. */
  onMessage?(message: ConversationMessage, conversation: ConversationMessage[]): void;
  /** A new agent took the conversation over (the first, or after a model, effort or runtime change). */
  onNewAgent?(): void;
}

/**
 * The conversation engine every client runs on — `query()` (and so `lathe -p`, the job executor)
 * and the interactive UI: one agent at a time over the conversation so far, made anew when the
 * model, the effort or the runtime changes; every event and message recorded in the session log
 * before the client sees it; prompts, compaction and context reports on demand.
 */
export class ConversationEngine {
  private agent?: Agent;
  /** What the agent was made with: another of these makes a new agent at the next step. */
  private made?: { runtime: Runtime; model: EngineModel; effort?: Effort | 'off' };
  private history: ConversationMessage[];
  private model?: EngineModel;
  private effort?: Effort | 'off';
  /** Notes that came while no agent was up, for the next one. */
  private readonly notes: string[] = [];

  constructor(
    private readonly options: EngineOptions,
    history: ConversationMessage[] = [],
  ) {
    this.history = history;
  }

  /** The model the next step runs on; the conversation goes on with it. */
  chooseModel(model: EngineModel): void {
    this.model = model;
  }

  get currentModel(): EngineModel | undefined {
    return this.model;
  }

  /** How hard the model thinks from the next step on; undefined: the model's own setting. */
  setEffort(effort: Effort | 'off' | undefined): void {
    this.effort = effort;
  }

  get effortName(): string {
    return this.effort ?? this.model?.effort ?? 'off';
  }

  /** The conversation so far. */
  get messages(): ConversationMessage[] {
    return this.agent?.messages ?? this.history;
  }

  /** The conversation goes on from `history` (a resumed session, or none after a fresh start). */
  restart(history: ConversationMessage[]): void {
    this.agent = undefined;
    this.made = undefined;
    this.history = history;
  }

  /** The conversation goes on from an earlier part of it; the log records the cut. */
  rewind(messages: ConversationMessage[]): void {
    this.restart(messages);
    recordCompaction(this.options.log(), messages);
  }

  /** Makes the agent now (it registers as a message recipient); false when no model is set. */
  begin(): boolean {
    return this.current() !== undefined;
  }

  /** Runs one prompt to its end. */
  send(text: string, signal: AbortSignal, images?: readonly ImageBlock[]): Promise<AgentOutcome> {
    const agent = this.current();
    if (!agent) throw new Error('no model to send the prompt to');
    return agent.send(text, signal, images);
  }

  /** Summarises the conversation so far (`/compact`). */
  async compact(signal: AbortSignal): Promise<void> {
    await this.current()?.compact(signal, 'manual');
  }

  /** What fills the context of the next request. */
  async inspectContext(): Promise<ContextReport | undefined> {
    return this.current()?.inspectContext();
  }

  /** A note for the model's next request (a peer's message, a webhook delivery). */
  notify(note: string): void {
    if (this.agent) this.agent.notify(note);
    else this.notes.push(note);
  }

  /** An event from outside the agent (a mode the client switched): recorded and told as the agent's are. */
  report(event: AgentEvent): void {
    recordAgentEvent(this.options.log(), event);
    this.options.onEvent(event);
  }

  /** The agent for the next step: the one running, or a new one with the conversation so far. */
  private current(): Agent | undefined {
    const { model, effort } = this;
    if (!model) return undefined;
    const runtime = this.options.runtime();
    const made = this.made;
    if (this.agent && made?.runtime === runtime && made.model === model && made.effort === effort)
      return this.agent;
    if (this.agent) this.history = this.agent.messages;
    const agent = this.newAgent(runtime, model);
    this.agent = agent;
    this.made = { runtime, model, effort };
    this.options.onNewAgent?.();
    for (const note of this.notes.splice(0)) agent.notify(note);
    return agent;
  }

  private newAgent(runtime: Runtime, model: EngineModel): Agent {
    const { options } = this;
    const agent: Agent = new Agent({
      runtime,
      model: model.model,
      modelName: model.modelName,
      capabilities: model.capabilities,
      providerOptions:
        this.effort === undefined
          ? model.providerOptions
          : (model.optionsForEffort?.(this.effort === 'off' ? undefined : this.effort) ??
            model.providerOptions),
      user: options.user,
      maxTurns: options.maxTurns,
      budget: options.budget,
      systemPrompt: options.systemPrompt,
      jsonSchema: options.jsonSchema,
      history: this.history,
      retryBaseMs: options.retryBaseMs,
      environment: options.environment,
      subagents: model.childModels && { models: model.childModels },
      onEvent: (event) => this.report(event),
      onMessage: (message) => {
        recordMessage(options.log(), message);
        options.onMessage?.(message, agent.messages);
      },
      onCompacted: (messages) => recordCompaction(options.log(), messages),
    });
    return agent;
  }
}
