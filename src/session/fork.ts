import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEvent } from './event.js';
import { forEachLine } from './lines.js';
import { type CreateSessionLogOptions, SessionLog } from './log.js';

/**
 * A new session that starts where another stands: a `session_start` of its own (its own id, and
 * `forkedFrom` naming the source in its meta), then every event of the source, renumbered. The
 * source is only read. Damaged lines of the source are left out, as reading it would.
 */
export function forkSessionLog(
  source: { path: string; id: string },
  options: CreateSessionLogOptions,
): SessionLog {
  const log = SessionLog.create({ ...options, meta: { ...options.meta, forkedFrom: source.id } });
  forEachLine(source.path, (line) => {
    if (line.oversized || line.unterminated) return;
    const event = parseEvent(line.bytes.toString('utf8'));
    if (typeof event === 'string' || event.type === 'session_start') return;
    const { seq: _seq, ...copied } = event;
    log.append(copied);
  });
  return log;
}

/**
 * The folder of a session that is not kept (`--no-session`): a temporary one, removed when the
 * process ends, so that the run's tool-result files still have a place while it lasts.
 */
export function unkeptSessionFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lathe-unkept-session-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
