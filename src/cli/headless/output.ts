import type { AgentEvent } from '../../agent/events.js';
import { ChildrenSpend } from '../../agent/subagents/children_spend.js';
import { DenialCollector, refusalLine } from './denials.js';
import { eventRecord } from './records.js';
import {
  exitCodeFor,
  initRecord,
  type RunDescription,
  type RunSummary,
  resultRecord,
} from './run_records.js';

export { exitCodeFor, type RunDescription, type RunSummary };

export type OutputFormat = 'text' | 'json' | 'stream-json';

/**
 * Writes a run as it goes, in the chosen format (the shapes are in docs/headless.md): `start`
 * the init record, `event` each event, `finish` the result. Refusals by permissions are a line
 * each on stderr in every format.
 */
export function createPrinter(
  format: OutputFormat,
  verbose: boolean,
  out = process.stdout,
  err = process.stderr,
) {
  /** A --json-schema run: its result carries `structured_output`. */
  let jsonSchema = false;
  const denials = new DenialCollector();
  /** What the child agents spend: the result reports it beside the run's own usage. */
  const children = new ChildrenSpend();
  const line = (stream: NodeJS.WritableStream, value: unknown) => stream.write(`${JSON.stringify(value)}\n`);
  return {
    start(run: RunDescription): void {
      jsonSchema = run.runtime.conditions.jsonSchema;
      if (format === 'stream-json') line(out, initRecord(run));
    },
    event(event: AgentEvent): void {
      if (event.type === 'subagent') children.take(event);
      const denied = denials.take(event);
      if (denied) err.write(`lathe: ${refusalLine(denied)}\n`);
      if (format === 'stream-json') {
        const record = eventRecord(event);
        if (record) line(out, record);
        return;
      }
      if (event.type === 'error' || event.type === 'retry') {
        err.write(
          `lathe: ${event.type === 'retry' ? `retrying in ${Math.round(event.delayMs / 1000)}s: ` : ''}${event.message}\n`,
        );
      } else if (verbose && event.type === 'tool_call') {
        err.write(`→ ${event.name} ${JSON.stringify(event.input).slice(0, 200)}\n`);
      } else if (verbose && event.type === 'tool_result' && event.result.isError && !denied) {
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
        return;
      }
      line(
        out,
        resultRecord(summary, { permissionDenials: denials.denied, jsonSchema, children: children.total() }),
      );
    },
  };
}
