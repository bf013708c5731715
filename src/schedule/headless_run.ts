import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runsDir } from './paths.js';

/** A `lathe -p` run started by a schedule or a trigger. */
export interface HeadlessRun {
  id: string;
  pid: number | undefined;
  logPath: string;
  finished: boolean;
  /** How the process ended, once it has. */
  exitCode?: number | null;
  signal?: NodeJS.Signals | null;
  /** Settles when the run's process has exited. */
  done: Promise<void>;
  /** Ends the run's whole process group (SIGTERM; SIGKILL after a grace period). */
  kill(): void;
}

export interface HeadlessRunRequest {
  prompt: string;
  workspace: string;
  documentsRoot: string;
  env: NodeJS.ProcessEnv;
  /** What started it, for the log's first line: "cron job cron_1a2b", "trigger trg_…". */
  origin: string;
  /** The lathe command (a JS file run with this Node), as the CLI passed it down; none: the run is refused. */
  bin: string | undefined;
  /** More arguments, before the prompt (a model, approval flags). */
  args?: readonly string[];
  /** Where its output goes instead of `<documents-root>/schedules/runs/<id>.log`. */
  logPath?: string;
}

const GRACE_MS = 3_000;

/**
 * Starts `lathe -p <prompt> --cwd <workspace>` in its own process group, its output appended to
 * `<documents-root>/schedules/runs/<id>.log`. The run answers approvals as any headless run
 * does: from settings, asks becoming denials.
 */
export function startHeadlessRun(request: HeadlessRunRequest): HeadlessRun {
  const bin = request.bin;
  if (!bin)
    throw new Error(
      'cannot start a headless run: this lathe was started without the path of its command (createRuntime option latheBin).',
    );
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  const id = `run_${stamp}_${randomBytes(3).toString('hex')}`;
  const logPath = request.logPath ?? join(runsDir(request.documentsRoot), `${id}.log`);
  mkdirSync(dirname(logPath), { recursive: true, mode: 0o700 });
  const fd = openSync(logPath, 'a', 0o600);
  let child: ReturnType<typeof spawn>;
  try {
    writeSync(fd, `# ${request.origin}, ${new Date().toISOString()}, in ${request.workspace}\n`);
    writeSync(fd, `# prompt: ${JSON.stringify(request.prompt)}\n`);
    // `--print=…` keeps a prompt that starts with "-" from being read as an option.
    child = spawn(
      process.execPath,
      [bin, '--cwd', request.workspace, ...(request.args ?? []), `--print=${request.prompt}`],
      {
        cwd: request.workspace,
        env: { ...request.env, LATHE_HOME: request.documentsRoot },
        detached: true,
        stdio: ['ignore', fd, fd],
      },
    );
  } finally {
    closeSync(fd);
  }
  child.unref();
  let killTimer: NodeJS.Timeout | undefined;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  const run: HeadlessRun = {
    id,
    pid: child.pid,
    logPath,
    finished: false,
    done: new Promise((resolve) => {
      child.on('error', (error) => {
        appendFileSync(logPath, `lathe: could not start the run: ${error.message}\n`);
        run.finished = true;
        resolve();
      });
      child.on('exit', (code, signal) => {
        clearTimeout(killTimer);
        appendFileSync(logPath, `# ended: ${signal ? `signal ${signal}` : `exit code ${code}`}\n`);
        run.exitCode = code;
        run.signal = signal;
        run.finished = true;
        resolve();
      });
    }),
    kill() {
      if (run.finished) return;
      signalGroup('SIGTERM');
      killTimer ??= setTimeout(() => signalGroup('SIGKILL'), GRACE_MS);
      killTimer.unref();
    },
  };
  return run;
}
