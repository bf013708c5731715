import type { Worker } from 'node:worker_threads';
import { lazyBuiltin } from '../util/lazy_builtin.js';

/**
 * Runs a regular expression the model wrote where a catastrophic one cannot pin the CPU: in a
 * worker thread that is terminated when one request takes longer than the limit. JavaScript
 * regexes backtrack, and `(a+)+$` on forty characters can run for hours; nothing inside the
 * thread running it can interrupt that, but terminating the worker can.
 *
 * The worker is started on first use and kept for the caller's later requests; close() ends it.
 */

/** How long one request may run before the worker is ended. */
export const REGEX_TIME_LIMIT_MS = 5_000;

export type RegexReplaceResult =
  | { ok: true; texts: string[]; counts: number[] }
  | { ok: false; error: string };

export type RegexTestResult = { ok: true; matches: boolean[] } | { ok: false; error: string };

/**
 * The worker's code, kept as text so it runs the same from the sources, the compiled files and
 * the bundle. A replacement may use $& (the match) and $1, $2 … (groups), nothing else.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const pattern = new RegExp(workerData.source, workerData.flags);
const replaceIn = (text, replacement, counter) =>
  text.replace(pattern, (...args) => {
    counter.count++;
    return replacement.replace(/\\$(\\d+|&)/g, (_m, ref) => (ref === '&' ? String(args[0]) : String(args[Number(ref)] ?? '')));
  });
parentPort.on('message', ({ id, kind, texts, replacement }) => {
  if (kind === 'lines') {
    // Line by line, without the line's ending; only changed lines are copied.
    const text = texts[0];
    const counter = { count: 0 };
    let out = '';
    let copied = 0;
    for (let start = 0; start <= text.length; ) {
      const newline = text.indexOf('\\n', start);
      const end = newline === -1 ? text.length : newline;
      const contentEnd = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
      const before = counter.count;
      pattern.lastIndex = 0;
      const replaced = replaceIn(text.slice(start, contentEnd), replacement, counter);
      if (counter.count !== before) {
        out += text.slice(copied, start) + replaced;
        copied = contentEnd;
      }
      if (newline === -1) break;
      start = newline + 1;
    }
    parentPort.postMessage({ id, texts: [out + text.slice(copied)], counts: [counter.count] });
    return;
  }
  if (kind === 'test') {
    parentPort.postMessage({ id, matches: texts.map((text) => { pattern.lastIndex = 0; return pattern.test(text); }) });
    return;
  }
  const counts = [];
  const out = texts.map((text) => {
    const counter = { count: 0 };
    pattern.lastIndex = 0;
    const replaced = replaceIn(text, replacement, counter);
    counts.push(counter.count);
    return replaced;
  });
  parentPort.postMessage({ id, texts: out, counts });
});
`;

export class TimedRegex {
  private worker: Worker | undefined;
  private nextId = 0;

  constructor(
    private readonly source: string,
    private readonly flags: string,
    private readonly limitMs = REGEX_TIME_LIMIT_MS,
  ) {}

  /** A syntax problem with the pattern, checked without running it; undefined when it compiles. */
  static problem(source: string, flags: string): string | undefined {
    try {
      new RegExp(source, flags);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }

  /** Replaces every match in each text, counting matches per text. */
  replaceAll(texts: string[], replacement: string): Promise<RegexReplaceResult> {
    return this.request({ kind: 'replace', texts, replacement }, (reply) => ({
      ok: true,
      texts: reply.texts as string[],
      counts: reply.counts as number[],
    }));
  }

  /** Replaces within each line of `text` separately (no match spans a line end); counts all matches. */
  async replaceLines(
    text: string,
    replacement: string,
  ): Promise<{ ok: true; text: string; count: number } | { ok: false; error: string }> {
    const result = await this.request({ kind: 'lines', texts: [text], replacement }, (reply) => ({
      ok: true as const,
      texts: reply.texts as string[],
      counts: reply.counts as number[],
    }));
    return result.ok ? { ok: true, text: result.texts[0], count: result.counts[0] } : result;
  }

  /** Whether each text has a match. */
  test(texts: string[]): Promise<RegexTestResult> {
    return this.request({ kind: 'test', texts }, (reply) => ({
      ok: true,
      matches: reply.matches as boolean[],
    }));
  }

  /** Ends the worker (if one was started). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private request<T>(
    message: Record<string, unknown>,
    done: (reply: Record<string, unknown>) => T,
  ): Promise<T | { ok: false; error: string }> {
    const { Worker } = lazyBuiltin('node:worker_threads');
    this.worker ??= new Worker(WORKER_SOURCE, {
      eval: true,
      // Plain JavaScript: no loaders or flags of the parent (a TypeScript loader would slow the start).
      execArgv: [],
      workerData: { source: this.source, flags: this.flags },
    });
    const worker = this.worker;
    // An idle worker must not keep the process alive; a request's timer does while it runs.
    worker.unref();
    const id = this.nextId++;
    return new Promise((resolve) => {
      const finish = (result: T | { ok: false; error: string }) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        resolve(result);
      };
      const onMessage = (reply: Record<string, unknown>) => {
        if (reply.id === id) finish(done(reply));
      };
      const onError = (error: Error) => {
        this.worker = undefined;
        finish({ ok: false, error: `the regex could not run: ${error.message}` });
      };
      const timer = setTimeout(() => {
        this.worker = undefined;
        void worker.terminate();
        const seconds = this.limitMs / 1000;
        finish({
          ok: false,
          error: `the regex took too long (over ${seconds} s; catastrophic backtracking?) — simplify it`,
        });
      }, this.limitMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage({ id, ...message });
    });
  }
}
