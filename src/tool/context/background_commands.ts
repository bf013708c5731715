/** A command started with `run_in_background`, kept per runtime until it is read or killed. */
export interface BackgroundCommand {
  id: string;
  command: string;
  outputPath: string;
  startedAt: number;
  /** Settles when the command ends; then `exitCode`/`signal` are known. */
  done: Promise<void>;
  finished: boolean;
  exitCode?: number | null;
  signal?: NodeJS.Signals | null;
  /** The size its saved output was cut at, when it printed more (it was stopped there). */
  outputCutAt?: number;
  /** Ends the command's whole process tree. */
  kill(): void;
  /** Set while the model waits for the command; `detach` hands it the result early and lets the command run on. */
  foreground?: boolean;
  detach?(): void;
}
