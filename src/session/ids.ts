import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { sessionsDir } from '../config/paths.js';

/** A sortable session id: UTC time, then random hex. */
export function newSessionId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

/** The folder of one session's files (tool results, …) under documents-root. */
export function sessionFolder(documentsRoot: string, workspace: string, sessionId: string): string {
  return join(sessionsDir(documentsRoot, workspace), sessionId);
}

/**
 * Where child agents' session logs (`<id>.jsonl`) and folders (`<id>/`) are kept: beside the
 * sessions, in a folder of their own, so that listing sessions and `--continue` see only the
 * user's.
 */
export function agentSessionsDir(documentsRoot: string, workspace: string): string {
  return join(sessionsDir(documentsRoot, workspace), 'agents');
}
