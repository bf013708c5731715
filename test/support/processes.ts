import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * A token unique to one test, to put in a command's environment (`export TOKEN_VAR=…`): every
 * process the command starts inherits it, whatever its command line, so the test can find its
 * own processes without matching unrelated ones on the machine.
 */
export function uniqueToken(label: string): string {
  return `lathe_test_${label.replace(/\W/g, '_')}_${process.pid}_${randomBytes(6).toString('hex')}`;
}

/** Live processes whose environment holds `token` (read from /proc/PID/environ). */
export function processesCarrying(token: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').includes(token)) found.push(Number(entry));
    } catch {
      // gone, or not readable
    }
  }
  return found;
}

/** Polls until `check` returns a value that is not undefined/false/null; throws after `timeoutMs`. */
export async function eventually<T>(
  check: () => T | Promise<T>,
  timeoutMs = 15_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false && value !== null) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
