import { compactionThreshold } from '../config/context_settings.js';
import type { ContextReport, ConversationAccess } from '../tool/context/conversation.js';
import type { ToolExecution } from '../tool/executor.js';
import { announcesOnly } from '../tool/kinds.js';
import { PendingNotes } from '../tool/pending_notes.js';
import { findTool } from '../tool/pool.js';
import type { ImageBlock } from '../tool/types.js';
import { AgentModes, agentInteraction, type Finished } from './agent_interaction.js';
import type { AgentOptions } from './agent_options.js';
import { AgentSpend } from './agent_spend.js';
import { compactMessages, DEFAULT_COMPACT_AT } from './compaction.js';
import { ContextLedger } from './context_ledger.js';
import { type ContextSource, conversationAccess, inspectContext } from './conversation_access.js';
import type { AgentEvent, AgentOutcome, Usage } from './events.js';
import { promptHooks, stopHooks } from './hook_steps.js';
import { LoopGuard } from './loop_guard.js';
import { assistantMessage, resultsMessage, userMessage } from './messages.js';
import { modelAccess } from './model_access.js';
import { describeModelFailure } from './model_errors.js';
import type { ConversationMessage } from './model_stream.js';
import { streamTurn, type TurnHost } from './model_turn.js';
import { RequestParts } from './request_parts.js';
import { modelFromEnvironment } from './subagents/child_model.js';
import { SubagentManager } from './subagents/manager.js';
import { TreeBudget } from './subagents/tree_budget.js';

export type { AgentOptions, UserSide } from './agent_options.js';

const MAX_REMINDERS = 2;
const WORKING_REMINDER =
  'You announced a step with working_respond but made no tool call. Make the tool call you announced now, ' +
  'or finish with attempt_completion.';

/** The outcome kind of a run a tool finished. */
const FINISHED_KIND = { completion: 'completed', answer: 'answered', stopped: 'stopped' } as const;

/** The agent loop: prompt → model stream → tool calls → executor → results → model, until done. */
export class Agent {
  readonly messages: ConversationMessage[];
  readonly usage: Usage;
  private readonly guard = new LoopGuard();
  /** How full the context is (the compaction check and ctx_inspect read it). */
  private readonly ledger = new ContextLedger();
  /** What the run has spent, and its limits. */
  private readonly spend: AgentSpend;
  /** The system prompt and tool definitions the requests carry. */
  private readonly parts: RequestParts;
  private readonly modes: AgentModes;
  private finished?: Finished;
  /** The user's prompt being worked on: compaction and snip keep it word for word. */
  private latestPrompt?: ConversationMessage;
  /** Lets the prompt's checkpoint begin: its first request is out. */
  private requestOut?: () => void;
  /** Notes for the model, sent as a user message before its next request (`notify`). */
  private readonly notes: string[] = [];
  /** What calls started that comes in later (edits' diagnostics): the next result or request carries it. */
  readonly pendingNotes = new PendingNotes();
  /** What ends with the running prompt (a loaded skill's granted tools). */
  private readonly promptEndings: Array<() => void> = [];
  /** This agent's children; absent where none may start (no child runtime, or past the depth limit). */
  readonly subagents?: SubagentManager;
  /** Whether the start hooks (SessionStart, SubagentStart) have run: before the first prompt only. */
  private startHooksRan = false;

  constructor(private readonly options: AgentOptions) {
    this.messages = [...(options.history ?? [])];
    const emit = (event: AgentEvent) => this.emit(event);
    this.spend = new AgentSpend(options, options.capabilities.pricing, this.ledger, emit);
    this.usage = this.spend.usage;
    this.parts = new RequestParts(options);
    this.modes = new AgentModes(options.runtime, emit);
    this.subagents = this.startManager();
    if (this.subagents) options.runtime.addRecipients?.(this.subagents.recipients());
  }

  /**
   * Queues a note for the model (a background child ended, a message arrived): it goes as a
   * user message before the next model request, of the prompt running now or of the next one.
   */
  notify(text: string): void {
    this.notes.push(text);
  }

  private startManager(): SubagentManager | undefined {
    const { runtime, subagents } = this.options;
    const setup = runtime.subagents;
    if (!setup || !runtime.child) return undefined;
    const tree = subagents?.tree ?? new TreeBudget(setup.limits.tree);
    const models = subagents?.models ?? modelFromEnvironment;
    const { retries, retryBaseMs, promptCache } = this.options;
    return new SubagentManager({
      parent: {
        runtime,
        emit: (event) => this.emit(event),
        environment: () => this.parts.environment(),
        startAgent: (options) => new Agent(options),
        agentOptions: { retries, retryBaseMs, promptCache, subagents: { models, tree } },
      },
      setup,
      model: {
        model: this.options.model,
        modelName: this.options.modelName,
        capabilities: this.options.capabilities,
        providerOptions: this.options.providerOptions,
      },
      models,
      tree,
      conversation: () => this.messages,
      notify: (text) => this.notify(text),
    });
  }

  private modelTools?: ReturnType<typeof modelAccess>;

  /** The model as tools may ask it (made once: the small model loads on first use). */
  private models(): ReturnType<typeof modelAccess> {
    const { model, modelName, providerOptions, subagents } = this.options;
    this.modelTools ??= modelAccess({
      model,
      modelName,
      providerOptions,
      models: subagents?.models ?? modelFromEnvironment,
    });
    return this.modelTools;
  }

  /** Sends the queued notes, as one user message. */
  private sendNotes(): void {
    if (this.notes.length === 0) return;
    const text = this.notes.splice(0).join('\n\n');
    this.push(userMessage(text));
    this.emit({ type: 'notice', message: text.split('\n')[0] });
  }

  private push(message: ConversationMessage): void {
    this.messages.push(message);
    this.options.onMessage?.(message);
  }

  private emit(event: AgentEvent): void {
    this.options.onEvent?.(event);
  }

  /** Runs one user prompt (with any images attached to it) to its end. */
  async send(
    prompt: string,
    signal?: AbortSignal,
    images: readonly ImageBlock[] = [],
  ): Promise<AgentOutcome> {
    this.finished = undefined;
    this.parts.newPrompt();
    const hooked = await promptHooks(this.options.runtime.hooks, prompt, {
      first: !this.startHooksRan,
      resumed: this.messages.length > 0,
      signal,
    });
    this.startHooksRan = true;
    const refusal = hooked.stop ?? (hooked.blocked && `A hook blocked the prompt: ${hooked.blocked}`);
    if (refusal) {
      const outcome = this.spend.outcome('stopped', refusal, 0);
      this.emit({ type: 'notice', message: refusal });
      this.emit({ type: 'done', outcome });
      return outcome;
    }
    this.options.runtime.rules?.refresh();
    // Taken while the model is asked, once the request is out (its git process would hold the
    // request back); calls that may change files wait for it.
    const requestOut = new Promise<void>((open) => {
      this.requestOut = open;
    });
    void this.options.runtime.checkpointTurn?.(prompt, this.messages, requestOut).then((unsaved) => {
      if (unsaved) this.emit({ type: 'notice', message: unsaved });
    });
    this.options.runtime.warmUp?.(requestOut);
    this.latestPrompt = userMessage(prompt, images);
    this.push(this.latestPrompt);
    this.emit({ type: 'user_message', text: prompt });
    for (const context of hooked.context) this.notify(context);
    const outcome = await this.run(signal).catch((error: unknown): AgentOutcome => {
      if (signal?.aborted) return this.spend.outcome('aborted', 'Interrupted.', 0);
      const message = describeModelFailure(error, this.options.modelName).message;
      this.emit({ type: 'error', message });
      return this.spend.outcome('error', message, 0);
    });
    // A run that ended before any request still has its prompt's checkpoint.
    this.requestOut?.();
    this.requestOut = undefined;
    for (const release of this.promptEndings.splice(0)) release();
    this.emit({ type: 'done', outcome });
    return outcome;
  }
  private async run(signal?: AbortSignal): Promise<AgentOutcome> {
    let reminders = 0;
    let lastWasWorkingOnly = false;
    let continuations = 0;
    /** The Stop hooks: the outcome to return, or undefined when a hook sends the agent on. */
    const stopping = async (outcome: AgentOutcome): Promise<AgentOutcome | undefined> => {
      const answer = await stopHooks(this.options.runtime.hooks, outcome, continuations, signal);
      if ('outcome' in answer) {
        if (answer.notice) this.emit({ type: 'notice', message: answer.notice });
        return answer.outcome;
      }
      continuations++;
      this.finished = undefined;
      this.push(userMessage(`A Stop hook asks you to go on: ${answer.goOn}`));
      this.emit({ type: 'notice', message: `a Stop hook sent the agent on: ${answer.goOn.split('\n')[0]}` });
      return undefined;
    };
    for (let turn = 1; ; turn++) {
      if (signal?.aborted) return this.spend.outcome('aborted', 'Interrupted.', turn - 1);
      const mail = await this.options.inbox?.();
      if (mail) this.notify(mail);
      const arrived = this.pendingNotes.take();
      if (arrived) this.notify(arrived);
      this.sendNotes();
      if (await this.ledger.reaches(this.messages, this.compactionThreshold())) await this.compact(signal);
      const forbidden = await this.spend.forbidden(turn, this.messages);
      if (forbidden) return forbidden;
      this.emit({ type: 'request_start', turn });
      const streamed = await streamTurn(this.turnHost(), signal);
      const native = this.options.capabilities.nativeTools;
      if (signal?.aborted) {
        // What was said and called before the interrupt stays, each call with how it ended, so
        // the model knows what did not run instead of proposing it again blindly.
        if (streamed.text || streamed.calls.length > 0) this.push(assistantMessage(streamed, native));
        const cut = resultsMessage(streamed.results, native);
        if (cut) this.push(cut);
        return this.spend.outcome('aborted', 'Interrupted.', turn);
      }
      this.push(assistantMessage(streamed, native));
      const results = resultsMessage(streamed.results, native);
      if (results) this.push(results);
      if (streamed.limit && streamed.calls.length > 0) return this.spend.limitOutcome(streamed.limit, turn);
      const repeating = this.guard.ended();
      if (repeating) return this.spend.outcome('stopped', repeating, turn);

      if (this.finished) {
        const base = this.spend.outcome(FINISHED_KIND[this.finished.kind], this.finished.text, turn);
        const outcome =
          'structured' in this.finished ? { ...base, structuredOutput: this.finished.structured } : base;
        const stood = await stopping(outcome);
        if (stood) return stood;
        continue;
      }
      if (streamed.calls.length > 0) {
        const pool = this.options.runtime.pool;
        lastWasWorkingOnly = streamed.calls.every((c) => {
          const tool = findTool(pool, c.name);
          return tool !== undefined && announcesOnly(tool);
        });
        continue;
      }
      // No tool call: a final answer, unless the model announced a step and did not take it.
      if (lastWasWorkingOnly && reminders < MAX_REMINDERS) {
        reminders++;
        lastWasWorkingOnly = false;
        this.push(userMessage(WORKING_REMINDER));
        this.emit({ type: 'notice', message: 'reminded the model to make the tool call it announced' });
        continue;
      }
      const stood = await stopping(this.spend.outcome('final_text', streamed.text, turn));
      if (stood) return stood;
    }
  }

  /** What a model request needs of this agent. */
  private turnHost(): TurnHost {
    const { options, messages, ledger, spend, parts, guard } = this;
    return {
      options,
      messages,
      ledger,
      spend,
      parts,
      guard,
      emit: (event) => this.emit(event),
      execution: (signal) => this.execution(signal),
      takeRequestOut: () => {
        const opened = this.requestOut;
        this.requestOut = undefined;
        return opened;
      },
    };
  }

  /** The executor of one request's calls, its events sent on as the agent's. */
  private execution(signal?: AbortSignal): ToolExecution {
    return this.options.runtime.createExecution({
      interaction: agentInteraction({
        options: this.options,
        modes: this.modes,
        pendingNotes: this.pendingNotes,
        emit: (event) => this.emit(event),
        notify: (text) => this.notify(text),
        finish: (outcome) => {
          this.finished = outcome;
        },
        onPromptEnd: (release) => {
          this.promptEndings.push(release);
        },
      }),
      signal,
      onStart: (call) => this.emit({ type: 'tool_start', id: call.id, name: call.name }),
      onResult: (call, result) => this.emit({ type: 'tool_result', id: call.id, name: call.name, result }),
      onProgress: (call, message) =>
        this.emit({ type: 'tool_progress', id: call.id, name: call.name, message }),
      agents: this.subagents,
      models: this.models(),
      conversation: this.conversation(),
    });
  }

  /** The share of the window at which the conversation is compacted (settings `context.compactAt`). */
  private compactionThreshold(): number {
    const compactAt = this.options.runtime.settings?.context.compactAt ?? DEFAULT_COMPACT_AT;
    return compactionThreshold(this.options.capabilities.contextWindow, compactAt);
  }

  /** What the next request would carry, for ctx_inspect, snip and `/context`. */
  private contextSource(): ContextSource {
    const { runtime, capabilities } = this.options;
    return {
      messages: this.messages,
      system: () => this.parts.system(),
      agentsFiles: () => this.parts.currentAgentsFiles(),
      rules: () => runtime.rules?.active() ?? [],
      skills: () => this.parts.skills(),
      tools: () => this.parts.tools(),
      window: capabilities.contextWindow,
      compactAt: runtime.settings?.context.compactAt ?? DEFAULT_COMPACT_AT,
      ledger: this.ledger,
    };
  }

  private conversation(): ConversationAccess {
    return conversationAccess(this.contextSource(), {
      latest: () => this.latestPrompt,
      sessionId: this.options.runtime.sessionId,
      changed: (messages) => this.options.onCompacted?.(messages),
    });
  }

  /** What fills the context now, by part (`/context`). */
  inspectContext(): Promise<ContextReport> {
    return inspectContext(this.contextSource());
  }

  /** Summarises the conversation, keeping lasting instructions and the latest prompt (`/compact`: manual). */
  async compact(signal?: AbortSignal, trigger: 'auto' | 'manual' = 'auto'): Promise<void> {
    const before = this.ledger.tokens;
    const { runtime } = this.options;
    await runtime.hooks?.compacting(trigger);
    const summary = await compactMessages(
      this.options.model,
      this.messages,
      signal,
      runtime.pool,
      runtime,
      this.latestPrompt,
    );
    this.messages.splice(0, this.messages.length, ...summary.messages);
    this.options.onCompacted?.(summary.messages);
    this.ledger.reset();
    this.spend.record(summary.usage, false);
    this.emit({ type: 'compaction', summary: summary.text, before });
  }
}
