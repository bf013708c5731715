/** One record of a session log. Generic on purpose: the store does not know the agent's event types. */
export type SessionEvent = { type: string; [key: string]: unknown };

/** The event on one line, or why it isn't one. */
export function parseEvent(line: string): SessionEvent | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return `invalid JSON (${(error as Error).message})`;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  if (typeof (value as SessionEvent).type !== 'string') return 'no "type" field';
  return value as SessionEvent;
}
