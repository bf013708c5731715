import type { LanguageModelV3 } from '@ai-sdk/provider';
import { MODES, type Mode } from '../config/types.js';
import { type ConversationControl, type LiveConversation, runConversation } from './conversation.js';
import { UsageError } from './errors.js';
import { MessageQueue } from './message_queue.js';
import type { SdkMessage, SdkResultMessage, SdkUserMessage } from './messages.js';
import type { HeadlessQueryOptions, QueryOptions } from './options.js';

/** A running conversation: iterate it for its messages; steer it while it runs. */
export interface Query extends AsyncIterable<SdkMessage> {
  /** Stops the run: the prompt running ends `aborted`, its commands and children stopped, and no more prompts are read. */
  interrupt(): Promise<void>;
  /** Stops the prompt running only (it ends `aborted`, its commands and children stopped); the next prompt is read as usual. */
  interruptTurn(): Promise<void>;
  /** Switches Plan/Act now; the tools and permissions follow. */
  setMode(mode: Mode): Promise<void>;
  /** Loads another model; the conversation goes on with it from the next prompt. */
  setModel(model: string | LanguageModelV3): Promise<void>;
  /** The last result: resolves when the run ends, rejects when it could not start. */
  readonly result: Promise<SdkResultMessage>;
}

/** Where the program's steering goes before the conversation is up, and after. */
class Control implements ConversationControl {
  private readonly controller: AbortController;
  private live?: LiveConversation;
  private turn?: AbortController;
  private pendingMode?: Mode;
  private pendingModel?: { model: string | LanguageModelV3; settle: (outcome: Promise<void>) => void };
  budgetStop?: string;

  constructor(controller: AbortController | undefined) {
    this.controller = controller ?? new AbortController();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  interrupt(): void {
    this.controller.abort();
  }

  startTurn(): AbortSignal {
    this.turn = new AbortController();
    return AbortSignal.any([this.controller.signal, this.turn.signal]);
  }

  get turnSignal(): AbortSignal {
    const turn = this.turn;
    return turn ? AbortSignal.any([this.controller.signal, turn.signal]) : this.controller.signal;
  }

  /** Between prompts there is nothing to stop: the next prompt starts a turn of its own. */
  interruptTurn(): void {
    this.turn?.abort();
  }

  stopForBudget(reason: string): void {
    this.budgetStop = reason;
    this.controller.abort();
  }

  setMode(mode: Mode): void {
    if (!MODES.includes(mode))
      throw new UsageError(`setMode: "${mode}" is no mode; use ${MODES.join(' or ')}`);
    if (this.live) this.live.setMode(mode);
    else this.pendingMode = mode;
  }

  setModel(model: string | LanguageModelV3): Promise<void> {
    if (this.live) return this.live.setModel(model);
    // A later call replaces an earlier one that waits: the earlier resolves, its model unused.
    this.pendingModel?.settle(Promise.resolve());
    return new Promise<void>((resolve) => {
      this.pendingModel = { model, settle: resolve };
    });
  }

  attach(live: LiveConversation): void {
    this.live = live;
    if (this.pendingMode) live.setMode(this.pendingMode);
    const pending = this.pendingModel;
    if (pending) pending.settle(live.setModel(pending.model));
  }
}

/**
 * Runs the agent on a prompt — a string, or an async iterable of user messages for a
 * conversation the program keeps feeding — and yields what `lathe -p --output-format
 * stream-json` prints: the init record, each event, a result record per prompt. The run starts
 * at once; its messages wait for the reader. Leaving the loop early interrupts the run.
 */
export function query(request: {
  prompt: string | AsyncIterable<SdkUserMessage | string>;
  options?: QueryOptions;
}): Query {
  const options: HeadlessQueryOptions = request.options ?? {};
  const control = new Control(options.abortController);
  const queue = new MessageQueue<SdkMessage>(() => control.interrupt());
  const result = (async () => {
    // The caller gets the Query before anything runs (a mistake in the options is the result's).
    await Promise.resolve();
    return runConversation(request.prompt, options, (message) => queue.push(message), control);
  })().then(
    (last) => {
      queue.end();
      if (!last) throw new UsageError('the run ended before its first prompt');
      return last;
    },
    (error: unknown) => {
      queue.fail(error);
      throw error;
    },
  );
  // A program that only iterates sees a failure there; the promise must not also be unhandled.
  result.catch(() => undefined);
  let iterated = false;
  return {
    [Symbol.asyncIterator]() {
      if (iterated) throw new UsageError('a query is read once: its messages are not kept');
      iterated = true;
      return queue;
    },
    interrupt: async () => control.interrupt(),
    interruptTurn: async () => control.interruptTurn(),
    setMode: async (mode) => control.setMode(mode),
    setModel: (model) => control.setModel(model),
    result,
  };
}
