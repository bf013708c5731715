import { readFileSync } from 'node:fs';

/**
 * A process as a later check can recognise it: its pid and, where the system says (Linux's
 * /proc), when it started, so a pid the system has handed to a new process is not taken for it.
 */
export interface ProcessIdentity {
  pid: number;
  /** Clock ticks since boot at which the process started; absent where it cannot be read. */
  startTime?: number;
}

interface ProcState {
  state: string;
  startTime: number;
}

/** The state letter and start time of `/proc/<pid>/stat`, or undefined where there is none. */
function procState(pid: number): ProcState | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces or ')': split after the last one.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const startTime = Number(fields[19]);
  return Number.isFinite(startTime) ? { state: fields[0], startTime } : undefined;
}

/** The identity of process `pid` (default: this one) as it is now. */
export function processIdentity(pid: number = process.pid): ProcessIdentity {
  const proc = procState(pid);
  return proc ? { pid, startTime: proc.startTime } : { pid };
}

/** Whether a process with this pid exists (also one of another user, which cannot be signalled). */
export function pidExists(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the process `identity` names is still running: its pid exists, is not a zombie (killed,
 * not yet reaped), and started when the identity says it did.
 */
export function isProcessAlive(identity: ProcessIdentity): boolean {
  const { pid, startTime } = identity;
  if (!pidExists(pid)) return false;
  const proc = procState(pid);
  if (!proc) return true;
  if (proc.state === 'Z' || proc.state === 'X') return false;
  return startTime === undefined || proc.startTime === startTime;
}
