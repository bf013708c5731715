import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseModelSpec } from '../provider/model_spec.js';
import { priceFor, requestCost } from '../provider/prices.js';
import type { JobBudget } from './job_spec.js';
import type { JobUsage, TrySpend } from './types.js';

/** After SIGTERM, the run's process group gets this long to write its result before SIGKILL. */
const GRACE_MS = 1_500;

export interface LatheRunRequest {
  /** The lathe command's script, run with this Node. */
  bin: string;
  dir: string;
  prompt: string;
  model?: string;
  profile?: string;
  budget: JobBudget;
  sandbox: 'workspace-write' | 'off';
  env: NodeJS.ProcessEnv;
  /** Where run.jsonl (the stream-json output) and stderr.log go. */
  filesDir: string;
  signal: AbortSignal;
  /** Told the run's pid (its process group) once started. */
  onStart?: (pid: number) => void;
  /** Told what the run has spent, at each of its requests. */
  onSpend?: (spend: TrySpend) => void;
}

export interface LatheRunResult {
  exitCode: number | null;
  /** The result object of stream-json, when the run wrote one. */
  result?: Record<string, unknown>;
  sessionId?: string;
  model?: string;
  usage: JobUsage;
  /** Dollars of the run from its last usage event, at the model's known prices: the cost of a run that wrote no result. */
  costUsd?: number;
  /** The budget that stopped the run, when one did. */
  budgetExhausted?: string;
  cancelled: boolean;
  /** The last lines of standard error, for a failure's message. */
  stderrTail: string;
}

/** The budget a result's `limit` names, as a job shows it: `tokens (1,050 of 500)`. */
function limitShown(limit: { name?: string; used?: number; max?: number }): string {
  if (limit.name === 'turns') return `turns (${limit.max})`;
  if (limit.name === 'cost') return `cost ($${(limit.used ?? 0).toFixed(4)} of $${limit.max})`;
  return `${limit.name} (${limit.used} of ${limit.max})`;
}

/** The command line of the run: its worktree, model, limits and sandbox, and the prompt. */
function latheArgs(request: LatheRunRequest): string[] {
  const args = [request.bin, '--cwd', request.dir, '--output-format', 'stream-json', '--yolo'];
  args.push('--sandbox', request.sandbox);
  if (request.model) args.push('--model', request.model);
  if (request.profile) args.push('--profile', request.profile);
  const { turns, tokens, cost } = request.budget;
  if (turns) args.push('--max-turns', String(turns));
  if (tokens) args.push('--max-tokens', String(tokens));
  if (cost) args.push('--max-cost', String(cost));
  // `--print=…` keeps a prompt that starts with "-" from being read as an option.
  args.push(`--print=${request.prompt}`);
  return args;
}

/** Reads the run's stream-json events into its outcome, telling its spend as it goes. */
function eventReader(
  request: LatheRunRequest,
  outcome: LatheRunResult,
): (event: Record<string, unknown>) => void {
  let requests = 0;
  return (event) => {
    if (event.type === 'system' && event.subtype === 'init') {
      outcome.sessionId = event.session_id as string;
      outcome.model = event.model as string;
    } else if (event.type === 'request_start') {
      requests++;
    } else if (event.type === 'usage') {
      const usage = event.total_usage as Record<string, number>;
      outcome.usage = { inputTokens: usage.input_tokens ?? 0, outputTokens: usage.output_tokens ?? 0 };
      const dollars = outcome.model ? costOf(outcome.model, usage) : undefined;
      if (dollars !== undefined) outcome.costUsd = dollars;
      request.onSpend?.({ usage: outcome.usage, costUsd: outcome.costUsd ?? null, turns: requests });
    } else if (event.type === 'result') {
      outcome.result = event;
      const limit = event.limit as Parameters<typeof limitShown>[0] | undefined;
      if (limit) outcome.budgetExhausted ??= limitShown(limit);
    }
  };
}

/**
 * Runs `lathe -p` in the job's worktree with `--output-format stream-json`, in its own process
 * group. Turns, tokens and cost are the run's own limits (`--max-turns`, `--max-tokens`,
 * `--max-cost`): it stops before a request it cannot pay for and runs no call of a response
 * that used its budget up. Seconds are watched here by a timer that ends the process group, as
 * cancelling does.
 */
export function runLathe(request: LatheRunRequest): Promise<LatheRunResult> {
  const child = spawn(process.execPath, latheArgs(request), {
    cwd: request.dir,
    env: request.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stream = createWriteStream(join(request.filesDir, 'run.jsonl'), { flags: 'a' });
  const errors = createWriteStream(join(request.filesDir, 'stderr.log'), { flags: 'a' });
  const outcome: LatheRunResult = {
    exitCode: null,
    usage: { inputTokens: 0, outputTokens: 0 },
    cancelled: false,
    stderrTail: '',
  };
  let killTimer: NodeJS.Timeout | undefined;
  const stop = () => {
    const signalGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    };
    signalGroup('SIGTERM');
    killTimer ??= setTimeout(() => signalGroup('SIGKILL'), GRACE_MS);
  };
  const exhaust = (which: string) => {
    outcome.budgetExhausted ??= which;
    stop();
  };
  const onAbort = () => {
    outcome.cancelled = true;
    stop();
  };
  if (request.signal.aborted) onAbort();
  request.signal.addEventListener('abort', onAbort, { once: true });
  const secondsTimer = request.budget.seconds
    ? setTimeout(() => exhaust(`seconds (${request.budget.seconds} s)`), request.budget.seconds * 1000)
    : undefined;
  if (child.pid) request.onStart?.(child.pid);

  const onEvent = eventReader(request, outcome);

  createInterface({ input: child.stdout }).on('line', (line) => {
    stream.write(`${line}\n`);
    try {
      onEvent(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // not an event line
    }
  });
  let tail = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errors.write(chunk);
    tail = (tail + chunk.toString()).slice(-2_000);
  });
  return new Promise((resolve) => {
    const finish = (code: number | null) => {
      clearTimeout(secondsTimer);
      clearTimeout(killTimer);
      request.signal.removeEventListener('abort', onAbort);
      outcome.exitCode = code;
      outcome.stderrTail = tail.trim();
      stream.end();
      errors.end(() => resolve(outcome));
    };
    child.on('error', (error) => {
      tail += `\ncannot start lathe: ${error.message}`;
      finish(null);
    });
    child.on('close', (code) => finish(code));
  });
}

/** Dollars of the run so far at the model's known prices (the whole run priced as one request). */
function costOf(model: string, usage: Record<string, number>): number | undefined {
  try {
    const price = priceFor(parseModelSpec(model));
    if (!price) return undefined;
    return requestCost(
      {
        inputTokens: usage.input_tokens ?? 0,
        outputTokens: usage.output_tokens ?? 0,
        cachedInputTokens: usage.cache_read_input_tokens ?? 0,
        cacheWriteTokens: usage.cache_creation_input_tokens ?? 0,
      },
      price,
    );
  } catch {
    return undefined;
  }
}
