import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

/** How a program whose output was read record by record ended. */
export interface StreamedRun {
  /** The exit code; null when it did not start, was stopped, or ended by a signal. */
  code: number | null;
  stderr: string;
  /** Set when the program could not be started (ENOENT: not installed). */
  error?: NodeJS.ErrnoException;
  /** The reader asked for no more records and the program was ended. */
  stopped: boolean;
}

export interface StreamOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** The byte that ends each record (default NUL, as `git ls-files -z` writes). */
  separator?: number;
  /** Written to the program's standard input, which is then closed. */
  input?: string;
  /** Looks at a record's bytes first: a record it refuses is never decoded (a scan of a long listing stays cheap). */
  select?: (bytes: Buffer, start: number, end: number) => boolean;
}

/**
 * Runs a program and hands each record of its output to `onRecord` as it arrives, so a listing
 * of a million paths is never held whole; `onRecord` returns false to end the program early.
 */
export function streamRecords(
  argv: readonly string[],
  options: StreamOptions,
  onRecord: (record: string) => boolean | undefined,
): Promise<StreamedRun> {
  const separator = options.separator ?? 0;
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), {
      cwd: options.cwd,
      env: options.env,
      signal: options.signal,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let rest: Buffer | undefined;
    let stopped = false;
    let stderr = '';
    let error: NodeJS.ErrnoException | undefined;
    const select = options.select;
    const emit = (bytes: Buffer, start: number, end: number) =>
      select && !select(bytes, start, end) ? undefined : onRecord(bytes.toString('utf8', start, end));
    const stop = () => {
      stopped = true;
      child.kill('SIGTERM');
    };
    (child.stdout as Readable).on('data', (chunk: Buffer) => {
      if (stopped) return;
      let start = 0;
      let end = chunk.indexOf(separator);
      // A record begun in an earlier chunk: only its own bytes are copied, not the chunk's.
      if (rest) {
        if (end < 0) {
          rest = Buffer.concat([rest, chunk]);
          return;
        }
        const record = Buffer.concat([rest, chunk.subarray(0, end)]);
        rest = undefined;
        start = end + 1;
        end = chunk.indexOf(separator, start);
        if (emit(record, 0, record.length) === false) return stop();
      }
      for (; end >= 0; end = chunk.indexOf(separator, start)) {
        const keepGoing = emit(chunk, start, end);
        start = end + 1;
        if (keepGoing === false) return stop();
      }
      if (start < chunk.length) rest = chunk.subarray(start);
    });
    (child.stderr as Readable).setEncoding('utf8').on('data', (text: string) => {
      if (stderr.length < 10_000) stderr += text;
    });
    if (options.input !== undefined && child.stdin) {
      // A program that exits before reading all of it closes the pipe: that is its answer.
      child.stdin.on('error', () => {});
      child.stdin.end(options.input);
    }
    let ended = false;
    const end = (code: number | null) => {
      if (ended) return;
      ended = true;
      if (!stopped && !error && rest && rest.length > 0) emit(rest, 0, rest.length);
      resolve({ code: stopped || error ? null : code, stderr, stopped, ...(error ? { error } : {}) });
    };
    child.on('error', (e: NodeJS.ErrnoException) => {
      error = e;
      // A program that never started has no output to wait for.
      if (child.pid === undefined) end(null);
    });
    child.on('close', end);
  });
}
