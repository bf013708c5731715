import type { Worker } from 'node:worker_threads';
import type { ReplAccess, ReplRun } from '../../tool/context/session_tools.js';
import { lazyBuiltin } from '../../util/lazy_builtin.js';
import { awaitBody } from './await_body.js';
import { REPL_WORKER_SOURCE } from './worker_source.js';

/** Time a run past its timeout gets to report a synchronous stop itself (its state then kept). */
const STOP_GRACE_MS = 1_000;

type WorkerMessage =
  | { type: 'tool'; callId: number; name: string; input: string }
  | { type: 'started'; id: number }
  | { type: 'done'; id: number; output: string; value?: string; error?: string; timedOut?: boolean };

type RunOptions = Parameters<ReplAccess['run']>[1];

/** Runs a tool the code called through the bridge and posts its result back, unless the run ended. */
function answerToolCall(
  worker: Worker,
  message: Extract<WorkerMessage, { type: 'tool' }>,
  options: RunOptions,
  settled: () => boolean,
): void {
  let input: unknown;
  try {
    input = JSON.parse(message.input);
  } catch {
    input = undefined;
  }
  void options
    .callTool(message.name, input)
    .catch((error: Error) => ({ isError: true, text: error.message }))
    .then((result) => {
      if (!settled())
        worker.postMessage({
          type: 'toolResult',
          callId: message.callId,
          isError: result.isError,
          text: result.text,
        });
    });
}

/** The result of a run the worker reported done: its value or error, or a synchronous stop. */
function finishedRun(message: Extract<WorkerMessage, { type: 'done' }>, seconds: number): ReplRun {
  if (message.timedOut)
    return {
      output: message.output,
      error: `Stopped: the code ran past its timeout (${seconds} s). The REPL's state is kept.`,
    };
  return {
    output: message.output,
    ...(message.value !== undefined ? { value: message.value } : {}),
    ...(message.error !== undefined ? { error: message.error } : {}),
  };
}

/** The result of a run whose worker failed: out of memory or another error; the worker is reset. */
function workerFailure(error: Error & { code?: string }, memoryMb: number): ReplRun {
  const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
  return {
    output: '',
    error: outOfMemory
      ? `Stopped: the code ran out of memory (the REPL may use ${memoryMb} MB, settings repl.memoryMb).`
      : `The REPL failed: ${error.message}`,
    reset: true,
  };
}

/**
 * The session's JavaScript REPL: one worker thread holding one `node:vm` context, started on
 * the first run and kept (with the code's state) until the session ends. The worker's heap is
 * capped (`resourceLimits`); a run past its timeout in synchronous code is stopped inside the
 * worker and the state kept, while one still waiting past it (a promise that never settles, a
 * loop after an await) or one out of memory ends the worker: the next run starts afresh.
 */
export class ReplHost implements ReplAccess {
  private worker: Worker | undefined;
  private nextRun = 0;
  /** Runs one at a time: a later one waits for the one before. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly limits: () => { memoryMb: number }) {}

  run(code: string, options: RunOptions): Promise<ReplRun> {
    // Code that awaits is rewritten to return its last value (parsed here, where tree-sitter is).
    const body = /\bawait\b/.test(code) ? awaitBody(code).catch(() => undefined) : undefined;
    const next = this.queue.then(async () => this.runNow(code, await body, options));
    this.queue = next.catch(() => undefined);
    return next;
  }

  async dispose(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private start(): Worker {
    const memoryMb = this.limits().memoryMb;
    const { Worker } = lazyBuiltin('node:worker_threads');
    const worker = new Worker(REPL_WORKER_SOURCE, {
      eval: true,
      // Plain JavaScript: no loaders or flags of the parent; no environment to read.
      execArgv: [],
      env: {},
      stdout: true,
      stderr: true,
      resourceLimits: {
        maxOldGenerationSizeMb: memoryMb,
        maxYoungGenerationSizeMb: Math.max(4, Math.min(32, Math.floor(memoryMb / 8))),
      },
    });
    // What the worker itself prints is not the code's output (console goes through the bridge).
    worker.stdout.resume();
    worker.stderr.resume();
    worker.on('error', () => {});
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
    });
    worker.unref();
    return worker;
  }

  private runNow(code: string, body: string | undefined, options: RunOptions): Promise<ReplRun> {
    if (options.signal.aborted)
      return Promise.resolve({ output: '', error: 'Interrupted before the code ran.' });
    this.worker ??= this.start();
    const worker = this.worker;
    const id = ++this.nextRun;
    const memoryMb = this.limits().memoryMb;
    return new Promise<ReplRun>((resolve) => {
      let settled = false;
      const finish = (run: ReplRun, end?: 'terminate') => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        worker.off('error', onError);
        options.signal.removeEventListener('abort', onAbort);
        if (end === 'terminate' || run.reset) {
          if (this.worker === worker) this.worker = undefined;
          void worker.terminate();
        } else worker.unref();
        resolve(run);
      };
      const seconds = options.timeoutMs / 1000;
      const onMessage = (message: WorkerMessage) => {
        if (message.type === 'tool') return answerToolCall(worker, message, options, () => settled);
        if (message.type === 'started' && message.id === id) return armTimer();
        if (message.type !== 'done' || message.id !== id) return;
        finish(finishedRun(message, seconds));
      };
      const onError = (error: Error & { code?: string }) => finish(workerFailure(error, memoryMb));
      const onExit = () => finish({ output: '', error: 'The REPL ended unexpectedly.', reset: true });
      const onAbort = () =>
        finish({ output: '', error: 'Interrupted by the user.', reset: true }, 'terminate');
      // Armed when the worker starts the run, not when it is sent: a worker that is still
      // starting (a busy machine) must not have its first run's time eaten by that.
      let timer: NodeJS.Timeout | undefined;
      const armTimer = () => {
        timer = setTimeout(
          () =>
            finish(
              {
                output: '',
                error: `Stopped: the code was still running past its timeout (${seconds} s).`,
                reset: true,
              },
              'terminate',
            ),
          options.timeoutMs + STOP_GRACE_MS,
        );
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      options.signal.addEventListener('abort', onAbort, { once: true });
      worker.ref();
      worker.postMessage({ type: 'run', id, code, body, timeoutMs: options.timeoutMs });
    });
  }
}
