import { findAgentsFiles } from '../config/agents_md.js';
import { compactionThreshold } from '../config/context_settings.js';
import type { Mode } from '../config/types.js';
import { requestCost } from '../provider/prices.js';
import type { AgentInteraction } from '../tool/context/agent.js';
import type { ContextReport, ConversationAccess } from '../tool/context/conversation.js';
import { definitionForModel, type ToolDefinitionForModel } from '../tool/definition.js';
import { announcesOnly } from '../tool/kinds.js';
import { PendingNotes } from '../tool/pending_notes.js';
import { findTool, hasTool, isCoordinatorPool } from '../tool/pool.js';
import type { ToolCall } from '../tool/run_call.js';
import type { ImageBlock, ToolResult } from '../tool/types.js';
import type { AgentOptions } from './agent_options.js';
import { compactMessages, DEFAULT_COMPACT_AT } from './compaction.js';
import { ContextLedger } from './context_ledger.js';
import { type ContextSource, conversationAccess, inspectContext } from './conversation_access.js';
import { environmentDetails } from './environment.js';
import { type AgentEvent, type AgentOutcome, emptyUsage, type Usage } from './events.js';
import { promptHooks, stopHooks } from './hook_steps.js';
import { LoopGuard } from './loop_guard.js';
import { assistantMessage, resultsMessage, userMessage } from './messages.js';
import { modelAccess } from './model_access.js';
import { describeModelFailure } from './model_errors.js';
import { type ConversationMessage, type ModelStreamEvent, streamModel } from './model_stream.js';
import { limitText, type RunLimit, RunLimits } from './run_limits.js';
import { modelFromEnvironment } from './subagents/child_model.js';
import { SubagentManager } from './subagents/manager.js';
import { TreeBudget } from './subagents/tree_budget.js';
import { systemPrompt } from './system_prompt.js';
import { describeToolsInText, parseTextToolCalls } from './text_tools.js';

export type { AgentOptions, UserSide } from './agent_options.js';

const MAX_REMINDERS = 2;
const WORKING_REMINDER =
  'You announced a step with working_respond but made no tool call. Make the tool call you announced now, ' +
  'or finish with attempt_completion.';

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

interface StreamedTurn {
  text: string;
  calls: ToolCall[];
  reasoning: Array<Extract<ModelStreamEvent, { type: 'reasoning' }>>;
  results: Array<{ call: ToolCall; result: ToolResult }>;
  usage?: Extract<ModelStreamEvent, { type: 'finish' }>;
  /** The spend limit this response's usage reached: its calls were not run. */
  limit?: RunLimit;
}

/** The agent loop: prompt → model stream → tool calls → executor → results → model, until done. */
export class Agent {
  readonly messages: ConversationMessage[];
  readonly usage: Usage = emptyUsage();
  /** Dollars spent, request by request; undefined when the model's prices are not known. */
  private costUsd?: number;
  private readonly guard = new LoopGuard();
  private readonly limits: RunLimits;
  private previousMode: Mode;
  private finished?: { kind: 'completion' | 'answer' | 'stopped'; text: string; structured?: unknown };
  /** How full the context is (the compaction check and ctx_inspect read it). */
  private readonly ledger = new ContextLedger();
  /** The user's prompt being worked on: compaction and snip keep it word for word. */
  private latestPrompt?: ConversationMessage;
  /** Lets the prompt's checkpoint begin: its first request is out. */
  private requestOut?: () => void;
  /**
   * The environment (folder, date, git status) is read once per agent, beside the model's
   * loading: a system prompt that stays the same from prompt to prompt keeps the provider's
   * prompt cache of the conversation valid.
   */
  private environment?: Promise<string>;
  /** AGENTS.md files are read once per prompt, not once per request. */
  private agentsFiles?: ReturnType<typeof findAgentsFiles>;
  private cachedSystem?: { key: string; text: string };
  private cachedTools?: { pool: unknown; tools: ToolDefinitionForModel[] | undefined };
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
    this.limits = new RunLimits(options.maxTurns, options.budget, options.capabilities.pricing);
    this.environment = options.environment;
    this.previousMode = options.runtime.conditions.mode === 'plan' ? 'act' : options.runtime.conditions.mode;
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
        environment: () => {
          this.environment ??= environmentDetails(runtime.cwd);
          return this.environment;
        },
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
    this.agentsFiles = undefined;
    const hooked = await promptHooks(this.options.runtime.hooks, prompt, {
      first: !this.startHooksRan,
      resumed: this.messages.length > 0,
      signal,
    });
    this.startHooksRan = true;
    const refusal = hooked.stop ?? (hooked.blocked && `A hook blocked the prompt: ${hooked.blocked}`);
    if (refusal) {
      const outcome = this.outcome('stopped', refusal, 0);
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
      if (signal?.aborted) return this.outcome('aborted', 'Interrupted.', 0);
      const message = describeModelFailure(error, this.options.modelName).message;
      this.emit({ type: 'error', message });
      return this.outcome('error', message, 0);
    });
    // A run that ended before any request still has its prompt's checkpoint.
    this.requestOut?.();
    this.requestOut = undefined;
    for (const release of this.promptEndings.splice(0)) release();
    this.emit({ type: 'done', outcome });
    return outcome;
  }

  private outcome(kind: AgentOutcome['kind'], text: string, turns: number, limit?: RunLimit): AgentOutcome {
    return {
      kind,
      text,
      usage: { ...this.usage },
      costUsd: this.costUsd,
      turns,
      ...(limit ? { limit } : {}),
    };
  }

  /** The outcome of a run a limit ended. */
  private limitOutcome(limit: RunLimit, turns: number, text = limitText(limit)): AgentOutcome {
    const kind = limit.name === 'turns' ? 'max_turns' : limit.name === 'cost' ? 'max_cost' : 'max_tokens';
    return this.outcome(kind, text, turns, limit);
  }

  /** Before request `turn`: the limit that forbids it, as the run's outcome. */
  private async forbidden(turn: number): Promise<AgentOutcome | undefined> {
    const turns = this.limits.turnsPassed(turn);
    if (turns) return this.limitOutcome(turns, turn - 1);
    if (!this.limits.holdsCalls) return undefined;
    const next = await this.ledger.nextRequest(this.messages);
    const refused = this.limits.unaffordable(this.usage, this.costUsd, next);
    if (!refused) return undefined;
    const text = limitText(refused.limit, { request: turn, estimate: refused.estimate });
    return this.limitOutcome(refused.limit, turn - 1, text);
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
      if (signal?.aborted) return this.outcome('aborted', 'Interrupted.', turn - 1);
      const mail = await this.options.inbox?.();
      if (mail) this.notify(mail);
      const arrived = this.pendingNotes.take();
      if (arrived) this.notify(arrived);
      this.sendNotes();
      if (await this.ledger.reaches(this.messages, this.compactionThreshold())) await this.compact(signal);
      const forbidden = await this.forbidden(turn);
      if (forbidden) return forbidden;
      this.emit({ type: 'request_start', turn });
      const streamed = await this.streamTurn(signal);
      const native = this.options.capabilities.nativeTools;
      if (signal?.aborted) {
        // What was said and called before the interrupt stays, each call with how it ended, so
        // the model knows what did not run instead of proposing it again blindly.
        if (streamed.text || streamed.calls.length > 0) this.push(assistantMessage(streamed, native));
        const cut = resultsMessage(streamed.results, native);
        if (cut) this.push(cut);
        return this.outcome('aborted', 'Interrupted.', turn);
      }
      this.push(assistantMessage(streamed, native));
      const results = resultsMessage(streamed.results, native);
      if (results) this.push(results);
      if (streamed.limit && streamed.calls.length > 0) return this.limitOutcome(streamed.limit, turn);
      const repeating = this.guard.ended();
      if (repeating) return this.outcome('stopped', repeating, turn);

      if (this.finished) {
        const kind =
          this.finished.kind === 'completion'
            ? 'completed'
            : this.finished.kind === 'answer'
              ? 'answered'
              : 'stopped';
        const base = this.outcome(kind, this.finished.text, turn);
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
      const stood = await stopping(this.outcome('final_text', streamed.text, turn));
      if (stood) return stood;
    }
  }

  private interaction(): AgentInteraction {
    const { runtime, user } = this.options;
    const agent = this;
    return {
      get mode() {
        return runtime.conditions.mode;
      },
      get previousMode() {
        return agent.previousMode;
      },
      jsonSchema: this.options.jsonSchema,
      modelName: this.options.modelName,
      ask: async (question, options) => {
        const answer = await user.ask(question, options);
        this.emit({ type: 'question', question, options, answer: answer.answer });
        return answer;
      },
      confirm: (request) => user.confirm(request),
      emit: (event) => this.emit(event),
      finish: (outcome) => {
        this.finished = outcome;
      },
      onPromptEnd: (release) => {
        this.promptEndings.push(release);
      },
      notify: (text) => this.notify(text),
      pendingNotes: this.pendingNotes,
      setMode: (mode) => {
        if (mode === runtime.conditions.mode) return;
        if (mode === 'plan') this.previousMode = runtime.conditions.mode;
        runtime.setMode(mode);
        this.emit({ type: 'mode_change', mode });
      },
    };
  }

  /** The tool definitions for the provider: schemas only; lathe's executor runs the calls. */
  private toolDefinitions(): ToolDefinitionForModel[] | undefined {
    if (!this.options.capabilities.nativeTools) return undefined;
    const { runtime } = this.options;
    const pool = runtime.definedTools ?? runtime.pool;
    if (this.cachedTools?.pool === pool) return this.cachedTools.tools;
    const profile = runtime.conditions.profile;
    const tools = pool.map((tool) => definitionForModel(tool, profile));
    this.cachedTools = { pool, tools };
    return tools;
  }

  /** The system prompt; rebuilt only when the mode, brief mode, the tools, AGENTS.md or the active rules change. */
  private async system(): Promise<string> {
    const { runtime, capabilities } = this.options;
    this.environment ??= environmentDetails(runtime.cwd);
    const { profile, mode } = runtime.conditions;
    this.agentsFiles ??= findAgentsFiles(runtime.cwd);
    const agentsText = this.agentsFiles.map((f) => `${f.path}\n${f.text}`).join('\n');
    // A conditional rule joins once a matching file is read: the prompt is rebuilt then.
    const rules = runtime.rules?.active() ?? [];
    const rulesText = rules.map((r) => `${r.name} ${r.paths?.join(',') ?? ''}\n${r.text}`).join('\n');
    const brief = runtime.brief?.on === true;
    const defined = runtime.definedTools ?? runtime.pool;
    const key = `${mode}:${brief}:${defined.map((t) => t.name).join(',')}:${agentsText}:${rulesText}`;
    if (this.cachedSystem?.key === key) return this.cachedSystem.text;
    const text = systemPrompt({
      profile,
      mode,
      environment: await this.environment,
      agentsFiles: this.agentsFiles,
      rules,
      jsonSchema: this.options.jsonSchema,
      instructions: this.options.systemPrompt?.replace,
      appended: this.options.systemPrompt?.append,
      coordinator: isCoordinatorPool(runtime.conditions, runtime.pool),
      brief,
      // Listed only where the model can load them.
      skills: hasTool(runtime.pool, 'load_skill') ? runtime.skills?.forModel : undefined,
      textTools: capabilities.nativeTools
        ? undefined
        : describeToolsInText(defined.map((t) => definitionForModel(t, profile))),
    });
    this.cachedSystem = { key, text };
    return text;
  }

  /** One model request, retried on 429/5xx before any output; tool calls start as they stream in. */
  private async streamTurn(signal?: AbortSignal): Promise<StreamedTurn> {
    const retries = this.options.retries ?? 4;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.streamOnce(signal);
      } catch (error) {
        const failure = describeModelFailure(error, this.options.modelName);
        if (
          signal?.aborted ||
          !failure.retryable ||
          attempt >= retries ||
          (error as { partial?: boolean }).partial
        ) {
          throw error;
        }
        const base = this.options.retryBaseMs ?? 1_000;
        const delayMs = Math.min(60_000, failure.retryAfterMs ?? base * 2 ** attempt);
        this.emit({ type: 'retry', attempt: attempt + 1, delayMs, message: failure.message });
        await sleep(delayMs, signal);
      }
    }
  }

  private async streamOnce(signal?: AbortSignal): Promise<StreamedTurn> {
    const native = this.options.capabilities.nativeTools;
    this.ledger.sending(this.messages.length);
    const execution = this.options.runtime.createExecution({
      interaction: this.interaction(),
      signal,
      onStart: (call) => this.emit({ type: 'tool_start', id: call.id, name: call.name }),
      onResult: (call, result) => this.emit({ type: 'tool_result', id: call.id, name: call.name, result }),
      onProgress: (call, message) =>
        this.emit({ type: 'tool_progress', id: call.id, name: call.name, message }),
      agents: this.subagents,
      models: this.models(),
      conversation: this.conversation(),
    });
    const turn: StreamedTurn = { text: '', calls: [], reasoning: [], results: [] };
    const collecting = (async () => {
      for await (const item of execution.results()) turn.results.push(item);
    })();
    // With a spend budget, calls wait for their response's usage: one that reaches it runs none.
    const held: ToolCall[] = [];
    const startCall = (call: ToolCall) => {
      const refusal = turn.limit
        ? `Not run: ${limitText(turn.limit)}`
        : this.guard.check(call.name, call.input);
      execution.add(call, refusal ? { isError: true, text: refusal } : undefined);
    };
    const addCall = (call: ToolCall) => {
      turn.calls.push(call);
      this.emit({ type: 'tool_call', id: call.id, name: call.name, input: call.input });
      if (this.limits.holdsCalls && !turn.usage) held.push(call);
      else startCall(call);
    };
    let produced = false;
    try {
      const tools = this.toolDefinitions();
      const events = streamModel(this.options.model, {
        system: await this.system(),
        messages: this.messages,
        tools,
        signal,
        providerOptions: this.options.providerOptions,
        promptCacheKey: this.options.promptCache === false ? undefined : this.options.runtime.sessionId,
      });
      // The provider builds the request in this turn of the event loop; two turns on, it is
      // on the wire (a local endpoint's connection is made in the first).
      const opened = this.requestOut;
      this.requestOut = undefined;
      if (opened) setImmediate(() => setImmediate(opened));
      for await (const event of events) {
        if (event.type === 'text') {
          produced = true;
          turn.text += event.text;
          if (native) this.emit({ type: 'text_delta', text: event.text });
        } else if (event.type === 'tool-call') {
          produced = true;
          addCall({ id: event.id, name: event.name, input: event.input });
        } else if (event.type === 'reasoning-delta') {
          this.emit({ type: 'thinking_delta', text: event.text });
        } else if (event.type === 'reasoning') {
          turn.reasoning.push(event);
        } else {
          turn.usage = event;
          this.recordUsage(event);
          turn.limit = this.limits.reached(event, this.usage, this.costUsd);
          for (const call of held.splice(0)) startCall(call);
        }
      }
      for (const call of held.splice(0)) startCall(call);
    } catch (error) {
      for (const call of held.splice(0))
        execution.add(call, { isError: true, text: 'Not run: the request ended.' });
      execution.cancelAll(signal?.aborted ? 'the user interrupted the run' : 'the model request failed');
      execution.close();
      await collecting;
      // An interrupt keeps what streamed so far: the loop records it as interrupted.
      if (signal?.aborted) return turn;
      if (error && typeof error === 'object') Object.assign(error, { partial: produced });
      throw error;
    }
    if (!native) {
      const parsed = parseTextToolCalls(turn.text);
      if (parsed.prose) this.emit({ type: 'text_delta', text: parsed.prose });
      for (const [i, call] of parsed.calls.entries()) {
        addCall({ id: `text_call_${Date.now()}_${i}`, name: call.name, input: call.input });
      }
    }
    execution.close();
    await collecting;
    if (turn.text)
      this.emit({ type: 'assistant_text', text: native ? turn.text : parseTextToolCalls(turn.text).prose });
    return turn;
  }

  /** Adds a request's usage and cost; `context`: its tokens are what the conversation now holds. */
  private recordUsage(usage: StreamedTurn['usage'], context = true): void {
    if (!usage) return;
    this.usage.inputTokens += usage.inputTokens;
    this.usage.outputTokens += usage.outputTokens;
    this.usage.cachedInputTokens += usage.cachedInputTokens;
    this.usage.cacheWriteTokens += usage.cacheWriteTokens;
    const price = this.options.capabilities.pricing;
    if (price) this.costUsd = (this.costUsd ?? 0) + requestCost(usage, price);
    if (context) this.ledger.recorded(usage);
    this.emit({
      type: 'usage',
      request: { ...usage },
      usage: { ...this.usage },
      contextTokens: this.ledger.tokens,
      costUsd: this.costUsd,
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
      system: () => this.system(),
      agentsFiles: () => this.agentsFiles ?? findAgentsFiles(runtime.cwd),
      rules: () => runtime.rules?.active() ?? [],
      skills: () => (hasTool(runtime.pool, 'load_skill') ? runtime.skills?.forModel : undefined),
      tools: () => this.toolDefinitions(),
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
    this.recordUsage(summary.usage, false);
    this.emit({ type: 'compaction', summary: summary.text, before });
  }
}
