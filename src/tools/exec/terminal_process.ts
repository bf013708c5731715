import type { EditorTerminal } from '../../tool/context/editor.js';
import { OutputCapture } from './output_capture.js';
import type { ProcessOutcome, RunningProcess } from './run_process.js';

/**
 * Runs a command in the terminal of the program driving lathe (an editor), behind the same
 * contract as a process of lathe's own: timeout, the caller's abort and `kill` abort the run
 * (the terminal stops the command), `release` lets it outlive both (sent to the background), and
 * the output ends up in `outputPath` with its head and tail kept — once the command has ended,
 * as the terminal hands it over whole.
 */
export function startInTerminal(
  terminal: EditorTerminal,
  options: {
    argv: string[];
    command: string;
    cwd: string;
    outputPath: string;
    keepBytes: number;
    maxOutputBytes?: number;
    timeoutMs?: number;
    signal?: AbortSignal;
    toolUseId?: string;
  },
): RunningProcess {
  const started = performance.now();
  const stop = new AbortController();
  let timedOut = false;
  let aborted = false;
  const timer = options.timeoutMs
    ? setTimeout(() => {
        timedOut = true;
        stop.abort();
      }, options.timeoutMs)
    : undefined;
  const onAbort = () => {
    aborted = true;
    stop.abort();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  const release = () => {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  };
  const output = new OutputCapture(options.outputPath, options.keepBytes, options.maxOutputBytes);
  const done = terminal
    .run({
      argv: options.argv,
      command: options.command,
      cwd: options.cwd,
      signal: stop.signal,
      outputLimit: options.maxOutputBytes,
      ...(options.toolUseId ? { toolUseId: options.toolUseId } : {}),
    })
    .catch((error: Error) => ({
      output: `The editor's terminal could not run the command: ${error.message}\n`,
      exitCode: null,
      signal: null,
      truncated: false,
    }))
    .then(async (result): Promise<ProcessOutcome> => {
      release();
      if (result.truncated)
        output.write(Buffer.from("[the start of the output was dropped by the editor's terminal]\n"));
      output.write(Buffer.from(result.output, 'utf8'));
      await output.close();
      return {
        exitCode: result.exitCode,
        signal: (result.signal ?? null) as NodeJS.Signals | null,
        timedOut,
        aborted,
        outputCut: false,
        durationMs: performance.now() - started,
        output,
      };
    });
  return { pid: undefined, done, kill: () => stop.abort(), release };
}
