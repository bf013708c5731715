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

/** Every match, in order: where it starts and ends in the text, and the text that replaces it. */
export type RegexMatchesResult =
  | { ok: true; starts: number[]; ends: number[]; replacements: string[] }
  | { ok: false; error: string };

export type RegexTestResult = { ok: true; matches: boolean[] } | { ok: false; error: string };

/**
 * The worker's code, kept as text so it runs the same from the sources, the compiled files and
 * the bundle. A replacement may use $& (the match) and $1, $2 … (groups), nothing else.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const pattern = new RegExp(workerData.source, workerData.flags);
const expand = (replacement, args) =>
  replacement.replace(/\\$(\\d+|&)/g, (_m, ref) => (ref === '&' ? String(args[0]) : String(args[Number(ref)] ?? '')));
const replaceIn = (text, replacement, counter) =>
  text.replace(pattern, (...args) => {
    counter.count++;
    return expand(replacement, args);
  });
// Walks a text's line breaks left to right (a lone CR too with crBreaks): returns where the
// content of the line at start ends and where the next line starts ([-1, -1]: no break left).
// The next LF and CR are kept until passed, so a CR text is not searched to its end per line.
const breakWalker = (text, crBreaks) => {
  let lf = -2;
  let cr = -2;
  return (start) => {
    if (lf !== -1 && lf < start) lf = text.indexOf('\\n', start);
    if (crBreaks && cr !== -1 && cr < start) cr = text.indexOf('\\r', start);
    if (crBreaks && cr !== -1 && (lf === -1 || cr < lf)) return [cr, lf === cr + 1 ? cr + 2 : cr + 1];
    if (lf === -1) return [-1, -1];
    return [lf > start && text.charCodeAt(lf - 1) === 13 ? lf - 1 : lf, lf + 1];
  };
};
parentPort.on('message', ({ id, kind, texts, replacement, crBreaks }) => {
  if (kind === 'lines') {
    // Line by line, without the line's ending; only changed lines are copied. A text that ends
    // with a break has no empty line after it.
    const text = texts[0];
    const counter = { count: 0 };
    let out = '';
    let copied = 0;
    const nextBreak = breakWalker(text, crBreaks);
    for (let start = 0; start < text.length; ) {
      const [contentEnd, next] = nextBreak(start);
      const end = contentEnd === -1 ? text.length : contentEnd;
      const before = counter.count;
      pattern.lastIndex = 0;
      const replaced = replaceIn(text.slice(start, end), replacement, counter);
      if (counter.count !== before) {
        out += text.slice(copied, start) + replaced;
        copied = end;
      }
      if (contentEnd === -1) break;
      start = next;
    }
    parentPort.postMessage({ id, texts: [out + text.slice(copied)], counts: [counter.count] });
    return;
  }
  if (kind === 'test') {
    parentPort.postMessage({ id, matches: texts.map((text) => { pattern.lastIndex = 0; return pattern.test(text); }) });
    return;
  }
  // Every match of the text: where it starts and ends, and what replaces it.
  const starts = [];
  const ends = [];
  const out = [];
  pattern.lastIndex = 0;
  texts[0].replace(pattern, (...args) => {
    const offset = args[typeof args[args.length - 1] === 'object' ? args.length - 3 : args.length - 2];
    starts.push(offset);
    ends.push(offset + args[0].length);
    out.push(expand(replacement, args));
    return '';
  });
  parentPort.postMessage({ id, starts, ends, texts: out });
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

  /** Every match in `text`, with the replacement each gets (`$&`, `$1` … expanded). */
  matches(text: string, replacement: string): Promise<RegexMatchesResult> {
    return this.request({ kind: 'matches', texts: [text], replacement }, (reply) => ({
      ok: true,
      starts: reply.starts as number[],
      ends: reply.ends as number[],
      replacements: reply.texts as string[],
    }));
  }

  /**
   * Replaces within each line of `text` separately (no match spans a line end); counts all
   * matches. Lines end at LF or CRLF, and at a lone CR too with `crBreaks` (see line_endings.ts).
   */
  async replaceLines(
    text: string,
    replacement: string,
    crBreaks: boolean,
  ): Promise<{ ok: true; text: string; count: number } | { ok: false; error: string }> {
    const result = await this.request({ kind: 'lines', texts: [text], replacement, crBreaks }, (reply) => ({
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
