import { emptyUsage, type Usage } from '../../agent/events.js';
import { parseEvent } from '../../session/event.js';
import { forEachLineBackward } from '../../session/lines.js';

/** What a session had spent when it was left: the status line of a resumed session starts there. */
export interface SpentSoFar {
  usage: Usage;
  costUsd?: number;
  contextTokens: number;
}

const ENDS = /^\{"type":"(session_end|done)"/;

const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/**
 * The usage of a session, read from the end of its log: the last `session_end` (which the UI
 * writes with the session's totals), or else the last run's `done` outcome when the session
 * ended without one. Undefined when the log has neither, or cannot be read.
 */
export function spentSoFar(logPath: string): SpentSoFar | undefined {
  let found: SpentSoFar | undefined;
  try {
    forEachLineBackward(logPath, (line) => {
      if (!ENDS.test(line.bytes.subarray(0, 32).toString('latin1'))) return;
      const event = parseEvent(line.bytes.toString('utf8'));
      if (typeof event === 'string') return;
      const outcome = (event.type === 'done' ? event.outcome : event) as Record<string, unknown> | undefined;
      const usage = outcome?.usage as Record<string, unknown> | undefined;
      if (!usage || typeof usage !== 'object') return;
      const cost = outcome?.costUsd;
      // Every counter the UI keeps, whatever else the record holds.
      const counted = emptyUsage();
      for (const key of Object.keys(counted) as Array<keyof Usage>) counted[key] = count(usage[key]);
      found = {
        usage: counted,
        ...(typeof cost === 'number' && Number.isFinite(cost) ? { costUsd: cost } : {}),
        contextTokens: count(outcome?.contextTokens),
      };
      return false;
    });
  } catch {
    return undefined;
  }
  return found;
}
