import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One temp folder for the whole run: every test's temp folders, and those of the programs the
 * tests start, go under it (TMPDIR is inherited), and it is removed at the end — the tests need
 * not each remember to clean up, and a run leaves nothing behind in /tmp.
 */
export function setup(): () => void {
  const folder = mkdtempSync(join(tmpdir(), 'lathe-tests-'));
  // As /tmp itself: tests also run commands as an unprivileged user.
  chmodSync(folder, 0o1777);
  process.env.TMPDIR = folder;
  return () => rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
}
