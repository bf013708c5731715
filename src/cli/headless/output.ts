import type { AgentEvent, AgentOutcome } from '../../agent/events.js';

export type OutputFormat = 'text' | 'json' | 'stream-json';

export interface RunSummary {
  outcome: AgentOutcome;
  sessionId: string;
  durationMs: number;
}

/** Whether a run's outcome counts as success for the exit code. */
export function exitCodeFor(outcome: AgentOutcome): number {
  switch (outcome.kind) {
    case 'completed':
    case 'answered':
    case 'final_text':
      return 0;
    case 'aborted':
      return 130;
    case 'max_turns':
    case 'stopped':
      return 2;
    default:
      return 1;
  }
}

function resultRecord(summary: RunSummary) {
  const { outcome } = summary;
  return {
    type: 'result',
    subtype: outcome.kind,
    is_error: exitCodeFor(outcome) !== 0,
    result: outcome.text,
    session_id: summary.sessionId,
    num_turns: outcome.turns,
    duration_ms: Math.round(summary.durationMs),
    // As Anthropic counts: input_tokens are those neither read from nor written to the cache.
    usage: {
      input_tokens:
        outcome.usage.inputTokens - outcome.usage.cachedInputTokens - outcome.usage.cacheWriteTokens,
      output_tokens: outcome.usage.outputTokens,
      cache_read_input_tokens: outcome.usage.cachedInputTokens,
      cache_creation_input_tokens: outcome.usage.cacheWriteTokens,
    },
    total_cost_usd: outcome.costUsd ?? null,
  };
}

/** Writes events as a run goes, in the chosen format; `finish` writes the result. */
export function createPrinter(
  format: OutputFormat,
  verbose: boolean,
  out = process.stdout,
  err = process.stderr,
) {
  return {
    event(event: AgentEvent): void {
      if (format === 'stream-json') {
        if (event.type !== 'done') out.write(`${JSON.stringify(event)}\n`);
        return;
      }
      if (event.type === 'error' || event.type === 'retry') {
        err.write(
          `lathe: ${event.type === 'retry' ? `retrying in ${Math.round(event.delayMs / 1000)}s: ` : ''}${event.message}\n`,
        );
      } else if (verbose && event.type === 'tool_call') {
        err.write(`→ ${event.name} ${JSON.stringify(event.input).slice(0, 200)}\n`);
      } else if (verbose && event.type === 'tool_result' && event.result.isError) {
        err.write(`  ✗ ${event.result.text.split('\n')[0].slice(0, 200)}\n`);
      } else if (event.type === 'compaction') {
        err.write('lathe: the conversation was compacted to fit the context window\n');
      }
    },
    finish(summary: RunSummary): void {
      if (format === 'text') {
        // An error was already written to stderr when it happened.
        if (summary.outcome.kind === 'error') return;
        const text = summary.outcome.text;
        const stream = exitCodeFor(summary.outcome) === 0 ? out : err;
        stream.write(text.endsWith('\n') ? text : `${text}\n`);
      } else if (format === 'json') {
        out.write(`${JSON.stringify(resultRecord(summary))}\n`);
      } else {
        out.write(`${JSON.stringify(resultRecord(summary))}\n`);
      }
    },
  };
}
