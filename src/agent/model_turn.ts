import type { ToolExecution } from '../tool/executor.js';
import type { ToolCall } from '../tool/run_call.js';
import type { ToolResult } from '../tool/types.js';
import type { AgentOptions } from './agent_options.js';
import type { AgentSpend } from './agent_spend.js';
import type { ContextLedger } from './context_ledger.js';
import type { AgentEvent } from './events.js';
import type { LoopGuard } from './loop_guard.js';
import { describeModelFailure } from './model_errors.js';
import {
  type ConversationMessage,
  type ModelRequest,
  type ModelStreamEvent,
  streamModel,
} from './model_stream.js';
import type { RequestParts } from './request_parts.js';
import { limitText, type RunLimit } from './run_limits.js';
import { parseTextToolCalls } from './text_tools.js';

/** One model response: what it said and called, and how its calls ended. */
export interface StreamedTurn {
  text: string;
  calls: ToolCall[];
  reasoning: Array<Extract<ModelStreamEvent, { type: 'reasoning' }>>;
  results: Array<{ call: ToolCall; result: ToolResult }>;
  usage?: Extract<ModelStreamEvent, { type: 'finish' }>;
  /** The spend limit this response's usage reached: its calls were not run. */
  limit?: RunLimit;
}

/** What a model request needs of its agent. */
export interface TurnHost {
  readonly options: AgentOptions;
  readonly messages: ConversationMessage[];
  readonly ledger: ContextLedger;
  readonly spend: AgentSpend;
  readonly parts: RequestParts;
  readonly guard: LoopGuard;
  emit(event: AgentEvent): void;
  /** The executor of this request's calls, its events sent on as the agent's. */
  execution(signal?: AbortSignal): ToolExecution;
  /** Lets the prompt's checkpoint begin, when this is the prompt's first request. */
  takeRequestOut(): (() => void) | undefined;
}

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

/** One model request, retried on 429/5xx before any output; tool calls start as they stream in. */
export async function streamTurn(host: TurnHost, signal?: AbortSignal): Promise<StreamedTurn> {
  const retries = host.options.retries ?? 4;
  for (let attempt = 0; ; attempt++) {
    try {
      return await streamOnce(host, signal);
    } catch (error) {
      const failure = describeModelFailure(error, host.options.modelName);
      if (
        signal?.aborted ||
        !failure.retryable ||
        attempt >= retries ||
        (error as { partial?: boolean }).partial
      ) {
        throw error;
      }
      const base = host.options.retryBaseMs ?? 1_000;
      const delayMs = Math.min(60_000, failure.retryAfterMs ?? base * 2 ** attempt);
      host.emit({ type: 'retry', attempt: attempt + 1, delayMs, message: failure.message });
      await sleep(delayMs, signal);
    }
  }
}

async function streamOnce(host: TurnHost, signal?: AbortSignal): Promise<StreamedTurn> {
  const native = host.options.capabilities.nativeTools;
  host.ledger.sending(host.messages.length);
  const execution = host.execution(signal);
  const response = new StreamingResponse(host, execution);
  const { turn } = response;
  const collecting = (async () => {
    for await (const item of execution.results()) turn.results.push(item);
  })();
  try {
    const tools = host.parts.tools();
    const events = streamModel(
      host.options.model,
      modelRequest(host, await host.parts.system(), tools, signal),
    );
    // The provider builds the request in this turn of the event loop; two turns on, it is
    // on the wire (a local endpoint's connection is made in the first).
    const opened = host.takeRequestOut();
    if (opened) setImmediate(() => setImmediate(opened));
    await response.read(events);
    response.startHeld();
  } catch (error) {
    response.refuseHeld();
    execution.cancelAll(signal?.aborted ? 'the user interrupted the run' : 'the model request failed');
    execution.close();
    await collecting;
    // An interrupt keeps what streamed so far: the loop records it as interrupted.
    if (signal?.aborted) return turn;
    if (error && typeof error === 'object') Object.assign(error, { partial: response.produced });
    throw error;
  }
  if (!native) response.addTextCalls();
  execution.close();
  await collecting;
  if (turn.text)
    host.emit({ type: 'assistant_text', text: native ? turn.text : parseTextToolCalls(turn.text).prose });
  return turn;
}

function modelRequest(
  host: TurnHost,
  system: string,
  tools: ModelRequest['tools'],
  signal?: AbortSignal,
): ModelRequest {
  const { options } = host;
  return {
    system,
    messages: host.messages,
    tools,
    signal,
    providerOptions: options.providerOptions,
    promptCacheKey: options.promptCache === false ? undefined : options.runtime.sessionId,
  };
}

/**
 * A response as it streams in: its text, reasoning and calls. A call starts as it arrives; with a
 * spend budget, calls wait for the response's usage, and one that reaches the budget runs none.
 */
class StreamingResponse {
  readonly turn: StreamedTurn = { text: '', calls: [], reasoning: [], results: [] };
  /** Whether the model said or called anything: a failed request that did is not retried. */
  produced = false;
  private readonly held: ToolCall[] = [];

  constructor(
    private readonly host: TurnHost,
    private readonly execution: ToolExecution,
  ) {}

  async read(events: AsyncIterable<ModelStreamEvent>): Promise<void> {
    const { host, turn } = this;
    const native = host.options.capabilities.nativeTools;
    for await (const event of events) {
      if (event.type === 'text') {
        this.produced = true;
        turn.text += event.text;
        if (native) host.emit({ type: 'text_delta', text: event.text });
      } else if (event.type === 'tool-call') {
        this.produced = true;
        this.add({ id: event.id, name: event.name, input: event.input });
      } else if (event.type === 'reasoning-delta') {
        host.emit({ type: 'thinking_delta', text: event.text });
      } else if (event.type === 'reasoning') {
        turn.reasoning.push(event);
      } else {
        turn.usage = event;
        turn.limit = host.spend.responded(event);
        this.startHeld();
      }
    }
  }

  /** A model without native tools wrote its calls in its text: they are read from it at the end. */
  addTextCalls(): void {
    const parsed = parseTextToolCalls(this.turn.text);
    if (parsed.prose) this.host.emit({ type: 'text_delta', text: parsed.prose });
    for (const [i, call] of parsed.calls.entries()) {
      this.add({ id: `text_call_${Date.now()}_${i}`, name: call.name, input: call.input });
    }
  }

  startHeld(): void {
    for (const call of this.held.splice(0)) this.start(call);
  }

  /** The request ended before the usage came: the held calls end unrun. */
  refuseHeld(): void {
    for (const call of this.held.splice(0))
      this.execution.add(call, { isError: true, text: 'Not run: the request ended.' });
  }

  private add(call: ToolCall): void {
    this.turn.calls.push(call);
    this.host.emit({ type: 'tool_call', id: call.id, name: call.name, input: call.input });
    if (this.host.spend.holdsCalls && !this.turn.usage) this.held.push(call);
    else this.start(call);
  }

  private start(call: ToolCall): void {
    const refusal = this.turn.limit
      ? `Not run: ${limitText(this.turn.limit)}`
      : this.host.guard.check(call.name, call.input);
    this.execution.add(call, refusal ? { isError: true, text: refusal } : undefined);
  }
}
