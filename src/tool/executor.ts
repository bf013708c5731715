import { NO_FACTS } from './facts.js';
import { findTool } from './pool.js';
import {
  type CallEnvironment,
  type ParsedCall,
  parseInput,
  runToolCall,
  type ToolCall,
  withFacts,
} from './run_call.js';
import type { Tool, ToolResult } from './types.js';

/** How many concurrency-safe calls run at once when the caller names no bound. */
export const DEFAULT_CONCURRENCY = 10;

export interface ExecutorOptions extends CallEnvironment {
  /** How many concurrency-safe calls may run at once. */
  concurrency?: number;
  signal?: AbortSignal;
  onStart?: (call: ToolCall) => void;
  onResult?: (call: ToolCall, result: ToolResult) => void;
}

interface Entry {
  call: ToolCall;
  safe: boolean;
  cancelsSiblings: boolean;
  state: 'queued' | 'running' | 'done';
  /** The tool and parsed call, found once when the call is added. */
  found?: { tool: Tool; parsed: ParsedCall };
  /** False while the tool's facts are being found: the call (and every later one) waits. */
  ready: boolean;
  controller: AbortController;
  result?: ToolResult;
  done: Promise<ToolResult>;
  settle: (result: ToolResult) => void;
}

/**
 * The streaming tool executor. Calls are taken as they arrive; consecutive calls that join a
 * parallel batch (`runsInParallel`, by default the concurrency-safe ones) run in parallel up to
 * the bound, a call that does not waits for
 * every running call and runs alone; results come back in the order the calls were made.
 */
export class ToolExecution {
  private readonly entries: Entry[] = [];
  private readonly bound: number;
  private closed = false;
  /** Wakes `results()` when a call is added or the execution is closed. */
  private wake: () => void = () => {};

  constructor(private readonly options: ExecutorOptions) {
    this.bound = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
    options.signal?.addEventListener('abort', () => this.cancelAll('the run was interrupted'), {
      once: true,
    });
  }

  /**
   * Adds a call as it streams in; it starts as soon as the scheduling rules allow. A call given
   * a `preset` result (the loop guard's refusal) is not run and takes its place in the order.
   */
  add(call: ToolCall, preset?: ToolResult): void {
    if (this.closed) throw new Error('no calls may be added after close()');
    const tool = findTool(this.options.pool, call.name);
    const valid = tool ? parseInput(tool, call.input) : undefined;
    // Without facts to find, the call is parsed here and now; else once they are found.
    const parsed: ParsedCall | undefined = !valid?.ok
      ? valid
      : tool?.parseFacts
        ? undefined
        : { ok: true, input: valid.input, facts: NO_FACTS };
    // A call that cannot even be parsed touches nothing, so it may run alongside others; one
    // whose facts are still being found is not known to be safe.
    const safe = !tool || (parsed ? !parsed.ok || tool.runsInParallel(parsed.input, parsed.facts) : false);
    let settle!: (result: ToolResult) => void;
    const done = new Promise<ToolResult>((resolve) => {
      settle = resolve;
    });
    const entry: Entry = {
      call,
      safe,
      ready: true,
      cancelsSiblings: tool?.cancelsSiblingsOnError ?? false,
      state: 'queued',
      found: tool && parsed ? { tool, parsed } : undefined,
      controller: new AbortController(),
      done,
      settle,
    };
    this.entries.push(entry);
    if (preset) this.finish(entry, preset);
    else if (tool?.parseFacts && valid?.ok) {
      entry.ready = false;
      void withFacts(tool, valid.input).then((found) => {
        entry.found = { tool, parsed: found };
        entry.safe = !found.ok || tool.runsInParallel(found.input, found.facts);
        entry.ready = true;
        this.schedule();
      });
    }
    this.schedule();
    this.wake();
  }

  /** No more calls will come. */
  close(): void {
    this.closed = true;
    this.wake();
  }

  /** Cancels one call: a queued call never starts, a running one gets its signal aborted. */
  cancel(id: string, reason = 'cancelled'): void {
    const entry = this.entries.find((e) => e.call.id === id);
    if (entry) this.cancelEntry(entry, reason);
  }

  cancelAll(reason: string): void {
    for (const entry of this.entries) this.cancelEntry(entry, reason);
  }

  /** Results in call order, each as soon as it and every earlier one is done. */
  async *results(): AsyncGenerator<{ call: ToolCall; result: ToolResult }> {
    for (let i = 0; ; i++) {
      while (i >= this.entries.length) {
        if (this.closed) return;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
      }
      const entry = this.entries[i];
      const result = await entry.done;
      yield { call: entry.call, result };
    }
  }

  private cancelEntry(entry: Entry, reason: string): void {
    if (entry.state === 'done') return;
    if (entry.state === 'queued') {
      this.finish(entry, { isError: true, text: `Not run: ${reason}.` });
      return;
    }
    entry.controller.abort(new Error(reason));
  }

  private schedule(): void {
    const running = this.entries.filter((e) => e.state === 'running');
    for (const entry of this.entries) {
      if (entry.state !== 'queued') continue;
      if (!entry.ready) return;
      const canStart = entry.safe
        ? running.every((r) => r.safe) && running.length < this.bound
        : running.length === 0;
      if (!canStart) return;
      this.start(entry);
      running.push(entry);
      if (!entry.safe) return;
    }
  }

  private start(entry: Entry): void {
    entry.state = 'running';
    this.options.onStart?.(entry.call);
    runToolCall(entry.call, this.options, entry.controller.signal, entry.found).then((result) => {
      if (result.isError && entry.cancelsSiblings) this.cancelSiblings(entry);
      this.finish(entry, result);
      this.schedule();
    });
  }

  /** A failing shell call cancels the calls running beside it and the rest of its parallel batch. */
  private cancelSiblings(failed: Entry): void {
    const reason = `${failed.call.name} call ${failed.call.id} failed beside it`;
    const index = this.entries.indexOf(failed);
    for (const entry of this.entries) {
      if (entry === failed) continue;
      if (entry.state === 'running') this.cancelEntry(entry, reason);
    }
    for (const entry of this.entries.slice(index + 1)) {
      if (entry.state !== 'queued') continue;
      if (!entry.safe) break;
      this.cancelEntry(entry, reason);
    }
  }

  private finish(entry: Entry, result: ToolResult): void {
    if (entry.state === 'done') return;
    entry.state = 'done';
    entry.result = result;
    this.options.onResult?.(entry.call, result);
    entry.settle(result);
  }
}

/** Runs a list of calls to completion and returns their results in call order. */
export async function executeToolCalls(
  calls: Iterable<ToolCall> | AsyncIterable<ToolCall>,
  options: ExecutorOptions,
): Promise<Array<{ call: ToolCall; result: ToolResult }>> {
  const execution = new ToolExecution(options);
  const collected: Array<{ call: ToolCall; result: ToolResult }> = [];
  const consuming = (async () => {
    for await (const item of execution.results()) collected.push(item);
  })();
  for await (const call of calls) execution.add(call);
  execution.close();
  await consuming;
  return collected;
}
