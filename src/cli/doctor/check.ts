import { execFile } from 'node:child_process';
import { findOnPath } from '../../util/find_on_path.js';

export { findOnPath };

/** One line of `lathe doctor`. */
export interface CheckResult {
  name: string;
  ok: boolean;
  /** What was found, or what is wrong. */
  detail: string;
  /** How to put it right, when it is not. */
  fix?: string;
  /** A failed essential check makes the exit code 1. */
  essential: boolean;
}

export const passed = (name: string, detail: string, essential = false): CheckResult => ({
  name,
  ok: true,
  detail,
  essential,
});

export const failed = (name: string, detail: string, fix: string, essential = false): CheckResult => ({
  name,
  ok: false,
  detail,
  fix,
  essential,
});

/** The first line a program prints for its version flag, or undefined when it does not run in time. */
export function versionOf(program: string, args: string[], timeoutMs = 5_000): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(program, args, { timeout: timeoutMs, encoding: 'utf8' }, (error, stdout, stderr) => {
      const line = `${stdout}\n${stderr}`.split('\n').find((l) => l.trim() !== '');
      resolve(error && !line ? undefined : line?.trim());
    });
  });
}

/** Settles with the work's result, or with `late()` once the time is up. */
export function withinTime<T>(work: Promise<T>, ms: number, late: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(late()), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
