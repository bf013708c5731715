import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { type RecordSelect, RecordSplitter } from './record_splitter.js';

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
  select?: RecordSelect;
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
    let stopped = false;
    let stderr = '';
    let error: NodeJS.ErrnoException | undefined;
    const records = new RecordSplitter(separator, onRecord, options.select);
    (child.stdout as Readable).on('data', (chunk: Buffer) => {
      if (stopped || records.push(chunk)) return;
      stopped = true;
      child.kill('SIGTERM');
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
      if (!stopped && !error) records.end();
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
