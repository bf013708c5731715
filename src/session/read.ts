import { parseEvent, type SessionEvent } from './event.js';
import { forEachLine, MAX_LINE_BYTES } from './lines.js';

export interface ReadSessionLogResult {
  events: SessionEvent[];
  /** The last line was unparsable (a write cut short by a kill) and was skipped. */
  tornLine: boolean;
  /** One message per corrupt line before the last; those lines are skipped. */
  errors: string[];
}

/**
 * Parses a session log without throwing on damage: see `tornLine` and `errors`. Reads in chunks,
 * so no log is ever one string; for resuming, `readSessionTail` reads only what it needs.
 */
export function readSessionLog(path: string): ReadSessionLogResult {
  const events: SessionEvent[] = [];
  const errors: string[] = [];
  let tornLine = false;
  let lineNumber = 0;
  forEachLine(path, (line) => {
    lineNumber++;
    if (line.oversized) {
      errors.push(`line ${lineNumber}: longer than ${MAX_LINE_BYTES} bytes`);
      return;
    }
    const text = line.bytes.toString('utf8');
    if (text.trim() === '') return;
    const parsed = parseEvent(text);
    if (typeof parsed !== 'string') events.push(parsed);
    else if (line.unterminated) tornLine = true;
    else errors.push(`line ${lineNumber}: ${parsed}`);
  });
  return { events, tornLine, errors };
}
