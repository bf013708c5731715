import { DenialCollector, refusalLine } from '../../sdk/denials.js';
import type { SdkEventMessage, SdkInitMessage, SdkResultMessage } from '../../sdk/messages.js';

export type OutputFormat = 'text' | 'json' | 'stream-json';

/**
 * Writes a run as it goes, in the chosen format (the shapes are in docs/headless.md), from the
 * messages of its query: `start` the init record, `event` each event, `finish` the result.
 * Refusals by permissions are a line each on stderr in every format.
 */
export function createPrinter(
  format: OutputFormat,
  verbose: boolean,
  out = process.stdout,
  err = process.stderr,
) {
  const denials = new DenialCollector();
  const line = (stream: NodeJS.WritableStream, value: unknown) => stream.write(`${JSON.stringify(value)}\n`);
  return {
    start(init: SdkInitMessage): void {
      if (format === 'stream-json') line(out, init);
    },
    event(event: SdkEventMessage): void {
      const denied = denials.take(event);
      if (denied) err.write(`lathe: ${refusalLine(denied)}\n`);
      if (format === 'stream-json') {
        line(out, event);
        return;
      }
      if (event.type === 'error') {
        err.write(`lathe: ${event.message}\n`);
      } else if (event.type === 'retry') {
        err.write(`lathe: retrying in ${Math.round(event.delay_ms / 1000)}s: ${event.message}\n`);
      } else if (verbose && event.type === 'tool_call') {
        err.write(`→ ${event.name} ${JSON.stringify(event.input).slice(0, 200)}\n`);
      } else if (verbose && event.type === 'tool_result' && event.is_error && !denied) {
        err.write(`  ✗ ${event.text.split('\n')[0].slice(0, 200)}\n`);
      } else if (event.type === 'compaction') {
        err.write('lathe: the conversation was compacted to fit the context window\n');
      }
    },
    finish(result: SdkResultMessage): void {
      if (format === 'text') {
        // An error was already written to stderr when it happened.
        if (result.outcome === 'error') return;
        const text = result.result;
        const stream = result.is_error ? err : out;
        stream.write(text.endsWith('\n') ? text : `${text}\n`);
        return;
      }
      line(out, result);
    },
  };
}
