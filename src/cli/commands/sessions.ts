import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { documentsRoot } from '../../config/paths.js';
import { realPathOf } from '../../permission/paths.js';
import { AmbiguousSessionError, findSession, listSessions } from '../../session/catalog.js';
import { exportMarkdown } from '../../session/export.js';
import { readSessionLog } from '../../session/read.js';

/** `lathe sessions [list|show ID|export ID --format md]`. */
export async function sessionsCommand(
  sub: 'list' | 'show' | 'export',
  id: string | undefined,
  opts: { cwd?: string; json?: boolean; format?: string },
): Promise<number> {
  const scope = { documentsRoot: documentsRoot(), workspace: realPathOf(resolve(opts.cwd ?? process.cwd())) };
  if (sub === 'list') {
    const sessions = listSessions(scope);
    if (opts.json) process.stdout.write(`${JSON.stringify(sessions, null, 2)}\n`);
    else if (sessions.length === 0) process.stdout.write('No sessions in this folder yet.\n');
    else {
      for (const s of sessions) {
        process.stdout.write(
          `${s.id}  ${s.updated.slice(0, 19).replace('T', ' ')}  ${s.events} events  ${s.replied ? '' : '(no reply) '}${s.firstPrompt ?? ''}\n`,
        );
      }
    }
    return 0;
  }
  let found: ReturnType<typeof findSession>;
  try {
    found = findSession(scope.documentsRoot, scope.workspace, id ?? '');
  } catch (error) {
    if (error instanceof AmbiguousSessionError) {
      process.stderr.write(`lathe: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  if (!found) {
    process.stderr.write(`lathe: no session matches "${id}" (see lathe sessions list)\n`);
    return 2;
  }
  if (sub === 'export' && opts.format === 'jsonl') {
    // Streamed: a log may be larger than any string.
    await pipeline(createReadStream(found.path), process.stdout, { end: false });
    return 0;
  }
  const { events, errors } = readSessionLog(found.path);
  for (const error of errors) process.stderr.write(`lathe: warning: ${found.path}: skipped ${error}\n`);
  process.stdout.write(`${exportMarkdown(events)}\n`);
  return 0;
}
