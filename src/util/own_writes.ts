/**
 * Paths lathe itself wrote (settings saved by an "always allow", files the edit tools wrote after
 * approval), numbered in order. The sandbox undoes what a command created in a protected path
 * that did not exist when the command started; a write of lathe's own in the meantime is not the
 * command's, and must be kept.
 */
const writes: Array<{ path: string; seq: number }> = [];
let seq = 0;
/** Enough to cover any command still running; older entries are dropped. */
const KEPT = 1000;

/** Notes a write of lathe's own. */
export function noteOwnWrite(path: string): void {
  writes.push({ path, seq: ++seq });
  if (writes.length > KEPT) writes.splice(0, writes.length - KEPT);
}

/** A mark to ask `wroteInside` about later. */
export function ownWriteMark(): number {
  return seq;
}

/** Whether lathe wrote at or under `path` after `mark`. */
export function wroteInside(path: string, mark: number): boolean {
  const prefix = path.endsWith('/') ? path : `${path}/`;
  return writes.some((w) => w.seq > mark && (w.path === path || w.path.startsWith(prefix)));
}
