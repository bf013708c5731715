import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { Mode } from '../config/types.js';
import type { ModelCapabilities } from '../provider/capabilities.js';
import type { Runtime } from '../runtime/create_runtime.js';
import { definitionForModel, type ToolDefinitionForModel } from '../tool/definition.js';
import type { ToolCall } from '../tool/run_call.js';
import type { AgentInteraction, ToolResult } from '../tool/types.js';
import { compactMessages, shouldCompact } from './compaction.js';
import { type AgentEvent, type AgentOutcome, emptyUsage, type Usage } from './events.js';
import { LoopGuard } from './loop_guard.js';
import { assistantMessage, resultsMessage, userMessage } from './messages.js';
import { describeModelFailure } from './model_errors.js';
import { type ConversationMessage, streamModel } from './model_stream.js';
import { type PromptContext, readPromptContext } from './prompt_context.js';
import { systemPrompt } from './system_prompt.js';
import { describeToolsInText, parseTextToolCalls } from './text_tools.js';

/** What the user side answers: the terminal UI asks a person, a headless run reads --answers. */
export interface UserSide {
  ask(question: string, options?: string[]): Promise<{ answer: string; present: boolean }>;
  confirm(request: { kind: 'plan' | 'phase' | 'todo'; title: string; body: string }): Promise<{
    approved: boolean;
    feedback?: string;
  }>;
}

export interface AgentOptions {
  runtime: Runtime;
  model: LanguageModelV3;
  modelName: string;
  capabilities: ModelCapabilities;
  user: UserSide;
  onEvent?: (event: AgentEvent) => void;
  /** Model requests per prompt before the run stops. */
  maxTurns?: number;
  jsonSchema?: Record<string, unknown>;
  /** Retries of a failed request (429, 5xx, overloaded), with backoff from this base. */
  retries?: number;
  retryBaseMs?: number;
  /** Options passed to the provider with every request. */
  providerOptions?: Record<string, Record<string, string | boolean>>;
  /** Earlier messages, when a session is resumed. */
  history?: ConversationMessage[];
  /** Every message added to the conversation, for the session log (resume replays them). */
  onMessage?: (message: ConversationMessage) => void;
  /** The conversation was replaced by a compacted one. */
  onCompacted?: (messages: ConversationMessage[]) => void;
  /** The first prompt's context, when the client started reading it early (`readPromptContext`). */
  promptContext?: Promise<PromptContext>;
}

const DEFAULT_MAX_TURNS = 100;
const MAX_REMINDERS = 2;
const WORKING_REMINDER =
  'You announced a step with working_respond but made no tool call. Make the tool call you announced now, ' +
  'or finish with attempt_completion.';

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

interface StreamedTurn {
  text: string;
  calls: ToolCall[];
  results: Array<{ call: ToolCall; result: ToolResult }>;
  usage?: { inputTokens?: number; outputTokens?: number; cachedInputTokens?: number };
}

/** The agent loop: prompt → model stream → tool calls → executor → results → model, until done. */
export class Agent {
  readonly messages: ConversationMessage[];
  readonly usage: Usage = emptyUsage();
  private readonly guard = new LoopGuard();
  private previousMode: Mode;
  private finished?: { kind: 'completion' | 'answer' | 'stopped'; text: string };
  private contextTokens = 0;
  /** Environment and AGENTS.md are read once per prompt, not once per request. */
  private promptContext?: Promise<PromptContext>;
  private earlyContext?: Promise<PromptContext>;
  private cachedSystem?: { key: string; text: string };
  private cachedTools?: { pool: unknown; tools: ToolDefinitionForModel[] | undefined };

  constructor(private readonly options: AgentOptions) {
    this.messages = [...(options.history ?? [])];
    this.earlyContext = options.promptContext;
    this.previousMode = options.runtime.conditions.mode === 'plan' ? 'act' : options.runtime.conditions.mode;
  }

  private push(message: ConversationMessage): void {
    this.messages.push(message);
    this.options.onMessage?.(message);
  }

  private emit(event: AgentEvent): void {
    this.options.onEvent?.(event);
  }

  /** Runs one user prompt to its end. */
  async send(prompt: string, signal?: AbortSignal): Promise<AgentOutcome> {
    this.finished = undefined;
    // Started now at the latest (git runs beside the rest); the first request waits for it.
    this.promptContext = this.earlyContext ?? readPromptContext(this.options.runtime.cwd);
    this.earlyContext = undefined;
    this.push(userMessage(prompt));
    this.emit({ type: 'user_message', text: prompt });
    const outcome = await this.run(signal).catch((error: unknown): AgentOutcome => {
      if (signal?.aborted) return this.outcome('aborted', 'Interrupted.', 0);
      const message = describeModelFailure(error, this.options.modelName).message;
      this.emit({ type: 'error', message });
      return this.outcome('error', message, 0);
    });
    this.emit({ type: 'done', outcome });
    return outcome;
  }

  private outcome(kind: AgentOutcome['kind'], text: string, turns: number): AgentOutcome {
    const pricing = this.options.capabilities.pricing;
    const costUsd = pricing
      ? (this.usage.inputTokens * pricing.input + this.usage.outputTokens * pricing.output) / 1_000_000
      : undefined;
    return { kind, text, usage: { ...this.usage }, costUsd, turns };
  }

  private async run(signal?: AbortSignal): Promise<AgentOutcome> {
    const maxTurns = this.options.maxTurns ?? DEFAULT_MAX_TURNS;
    let reminders = 0;
    let lastWasWorkingOnly = false;
    for (let turn = 1; turn <= maxTurns; turn++) {
      if (signal?.aborted) return this.outcome('aborted', 'Interrupted.', turn - 1);
      if (shouldCompact(this.contextTokens, this.options.capabilities.contextWindow))
        await this.compact(signal);
      this.emit({ type: 'request_start', turn });
      const streamed = await this.streamTurn(signal);
      if (signal?.aborted) return this.outcome('aborted', 'Interrupted.', turn);
      const native = this.options.capabilities.nativeTools;
      this.push(assistantMessage(streamed, native));
      const results = resultsMessage(streamed.results, native);
      if (results) this.push(results);

      if (this.finished) {
        const kind =
          this.finished.kind === 'completion'
            ? 'completed'
            : this.finished.kind === 'answer'
              ? 'answered'
              : 'stopped';
        return this.outcome(kind, this.finished.text, turn);
      }
      if (streamed.calls.length > 0) {
        lastWasWorkingOnly = streamed.calls.every(
          (c) => c.name === 'working_respond' || c.name === 'act_mode_respond',
        );
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
      return this.outcome('final_text', streamed.text, turn);
    }
    return this.outcome('max_turns', `Stopped after ${maxTurns} model requests (--max-turns).`, maxTurns);
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
      ask: async (question, options) => {
        const answer = await user.ask(question, options);
        this.emit({ type: 'question', question, options, answer: answer.answer });
        return answer;
      },
      confirm: (request) => user.confirm(request),
      emit: (event) => this.emit(event as AgentEvent),
      finish: (outcome) => {
        this.finished = outcome;
      },
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
    const pool = this.options.runtime.pool;
    if (this.cachedTools?.pool === pool) return this.cachedTools.tools;
    const profile = this.options.runtime.conditions.profile;
    const tools = pool.map((tool) => definitionForModel(tool, profile));
    this.cachedTools = { pool, tools };
    return tools;
  }

  /** The system prompt; rebuilt only when the mode or the tools change. */
  private async system(): Promise<string> {
    const { runtime, capabilities } = this.options;
    this.promptContext ??= readPromptContext(runtime.cwd);
    const context = await this.promptContext;
    const { profile, mode } = runtime.conditions;
    const key = `${mode}:${runtime.pool.map((t) => t.name).join(',')}:${context.environment}`;
    if (this.cachedSystem?.key === key) return this.cachedSystem.text;
    const text = systemPrompt({
      profile,
      mode,
      environment: context.environment,
      agentsFiles: context.agentsFiles,
      jsonSchema: this.options.jsonSchema,
      textTools: capabilities.nativeTools
        ? undefined
        : describeToolsInText(runtime.pool.map((t) => definitionForModel(t, profile))),
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
    const execution = this.options.runtime.createExecution({
      interaction: this.interaction(),
      signal,
      onStart: (call) => this.emit({ type: 'tool_start', id: call.id, name: call.name }),
      onResult: (call, result) => this.emit({ type: 'tool_result', id: call.id, name: call.name, result }),
    });
    const turn: StreamedTurn = { text: '', calls: [], results: [] };
    const collecting = (async () => {
      for await (const item of execution.results()) turn.results.push(item);
    })();
    const addCall = (call: ToolCall) => {
      turn.calls.push(call);
      this.emit({ type: 'tool_call', id: call.id, name: call.name, input: call.input });
      const refusal = this.guard.check(call.name, call.input);
      execution.add(call, refusal ? { isError: true, text: refusal } : undefined);
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
      });
      for await (const event of events) {
        if (event.type === 'text') {
          produced = true;
          turn.text += event.text;
          if (native) this.emit({ type: 'text_delta', text: event.text });
        } else if (event.type === 'tool-call') {
          produced = true;
          addCall({ id: event.id, name: event.name, input: event.input });
        } else {
          turn.usage = event;
        }
      }
    } catch (error) {
      execution.cancelAll('the model request failed');
      execution.close();
      await collecting;
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
    this.recordUsage(turn.usage);
    return turn;
  }

  private recordUsage(usage: StreamedTurn['usage']): void {
    if (!usage) return;
    const input = usage.inputTokens ?? 0;
    this.usage.inputTokens += input;
    this.usage.outputTokens += usage.outputTokens ?? 0;
    this.usage.cachedInputTokens += usage.cachedInputTokens ?? 0;
    this.contextTokens = input + (usage.outputTokens ?? 0);
    this.emit({ type: 'usage', usage: { ...this.usage }, contextTokens: this.contextTokens });
  }

  private async compact(signal?: AbortSignal): Promise<void> {
    const before = this.contextTokens;
    const summary = await compactMessages(this.options.model, this.messages, signal);
    this.messages.splice(0, this.messages.length, ...summary.messages);
    this.options.onCompacted?.(summary.messages);
    this.contextTokens = 0;
    this.emit({ type: 'compaction', summary: summary.text, before });
  }
}
