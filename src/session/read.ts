import * as fs from 'node:fs';
import { basename, join } from 'node:path';
import { sessionsDir } from '../config/paths.js';
import type { SessionEvent } from './log.js';

export interface ReadSessionLogResult {
  events: SessionEvent[];
  /** The last line was unparsable (a write cut short by a kill) and was skipped. */
  tornLine: boolean;
  /** One message per corrupt line before the last; those lines are skipped. */
  errors: string[];
}

export interface SessionSummary {
  id: string;
  path: string;
  /** The `session_start` time, or the file's birth time when that record is missing. */
  started: string;
  /** The log's last modification time. */
  updated: string;
  /** `meta.prompt` of `session_start`, else the first `user_message` near the head; one line, capped. */
  firstPrompt?: string;
  /** Complete lines in the log (counted, not parsed). */
  events: number;
  /** The workspace recorded in `session_start`, useful when the session was found in another project. */
  workspace?: string;
}

export interface SessionScope {
  documentsRoot: string;
  workspace: string;
}

/** Bytes read from the head of a log to find its first record and first prompt. */
const HEAD_BYTES = 256 * 1024;
/** Hard cap on the head, past the largest record the log writes. */
const MAX_HEAD_BYTES = 2 * 1024 * 1024;
const PROMPT_PREVIEW_CHARS = 200;

/** Parses a session log without throwing on damage: see `tornLine` and `errors`. */
export function readSessionLog(path: string): ReadSessionLogResult {
  const lines = fs.readFileSync(path, 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const events: SessionEvent[] = [];
  const errors: string[] = [];
  let tornLine = false;
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const parsed = parseEvent(line);
    if (typeof parsed !== 'string') events.push(parsed);
    else if (index === lines.length - 1) tornLine = true;
    else errors.push(`line ${index + 1}: ${parsed}`);
  });
  return { events, tornLine, errors };
}

/** The event on one line, or why it isn't one. */
function parseEvent(line: string): SessionEvent | string {
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

/** This workspace's sessions, most recently updated first. */
export function listSessions(scope: SessionScope): SessionSummary[] {
  return listSessionsIn(sessionsDir(scope.documentsRoot, scope.workspace));
}

/** The session `--continue` resumes: the most recently updated one of this workspace. */
export function latestSession(scope: SessionScope): SessionSummary | undefined {
  return listSessions(scope)[0];
}

/** Thrown when a prefix matches several sessions; the message lists them. */
export class AmbiguousSessionError extends Error {
  constructor(
    readonly prefix: string,
    readonly matches: SessionSummary[],
  ) {
    const listed = matches.map((match) => `  ${match.id}  ${match.path}`).join('\n');
    super(`session id "${prefix}" is ambiguous; it matches:\n${listed}`);
    this.name = 'AmbiguousSessionError';
  }
}

/**
 * Finds a session by full id or unique prefix, first in this workspace, then in every other
 * project's folder (a user may resume by id from elsewhere). An exact id beats prefixes.
 * Returns undefined when nothing matches; throws `AmbiguousSessionError` on several matches.
 */
export function findSession(
  documentsRoot: string,
  workspace: string,
  idOrPrefix: string,
): SessionSummary | undefined {
  const wanted = idOrPrefix.trim().replace(/\.jsonl$/, '');
  if (wanted === '') return undefined;
  const own = sessionsDir(documentsRoot, workspace);
  const inOwn = pickMatch(sessionFiles(own), wanted);
  if (inOwn) return summarize(inOwn);
  const root = join(documentsRoot, 'sessions');
  const others = subfolders(root)
    .map((name) => join(root, name))
    .filter((dir) => dir !== own)
    .flatMap(sessionFiles);
  const inOthers = pickMatch(others, wanted);
  return inOthers ? summarize(inOthers) : undefined;
}

/** The one file matching `wanted`, or undefined for none; throws when several match. */
function pickMatch(files: string[], wanted: string): string | undefined {
  const exact = files.filter((file) => basename(file, '.jsonl') === wanted);
  const matches =
    exact.length > 0 ? exact : files.filter((file) => basename(file, '.jsonl').startsWith(wanted));
  if (matches.length > 1) throw new AmbiguousSessionError(wanted, sortNewestFirst(matches.map(summarize)));
  return matches[0];
}

function listSessionsIn(dir: string): SessionSummary[] {
  return sortNewestFirst(sessionFiles(dir).map(summarize));
}

function sortNewestFirst(sessions: SessionSummary[]): SessionSummary[] {
  // Ids are time-sortable, so they break ties between logs touched within the same mtime tick.
  return sessions.sort((a, b) => compareDesc(a.updated, b.updated) || compareDesc(a.id, b.id));
}

function compareDesc(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}

function sessionFiles(dir: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.jsonl'))
    .map((e) => join(dir, e.name));
}

function subfolders(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** A summary from the file's head and stat, without parsing the whole log. */
function summarize(path: string): SessionSummary {
  const stat = fs.statSync(path);
  const { head, lines } = scanLog(path);
  const headLines = head.split('\n');
  const first = parseEvent(headLines[0] ?? '');
  const start = typeof first !== 'string' && first.type === 'session_start' ? first : undefined;
  const meta = start?.meta as Record<string, unknown> | undefined;
  const prompt = typeof meta?.prompt === 'string' ? meta.prompt : firstUserMessage(headLines);
  const summary: SessionSummary = {
    id: typeof start?.id === 'string' ? start.id : basename(path, '.jsonl'),
    path,
    started: typeof start?.time === 'string' ? start.time : stat.birthtime.toISOString(),
    updated: stat.mtime.toISOString(),
    events: lines,
  };
  if (prompt !== undefined) summary.firstPrompt = preview(prompt);
  if (typeof start?.workspace === 'string') summary.workspace = start.workspace;
  return summary;
}

/** Reads the log in chunks: keeps the first `HEAD_BYTES` as text and counts newline-ended lines. */
function scanLog(path: string): { head: string; lines: number } {
  const fd = fs.openSync(path, 'r');
  try {
    const chunk = Buffer.alloc(64 * 1024);
    const headChunks: Buffer[] = [];
    let headBytes = 0;
    let lines = 0;
    for (;;) {
      const read = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      const view = chunk.subarray(0, read);
      const linesBefore = lines;
      for (let at = view.indexOf(0x0a); at !== -1; at = view.indexOf(0x0a, at + 1)) lines++;
      // Keep reading the head past HEAD_BYTES until the first line is whole (a long prompt in meta).
      const needHead = headBytes < HEAD_BYTES || linesBefore === 0;
      if (needHead && headBytes < MAX_HEAD_BYTES) {
        headChunks.push(Buffer.from(view));
        headBytes += read;
      }
    }
    return { head: Buffer.concat(headChunks).toString('utf8'), lines };
  } finally {
    fs.closeSync(fd);
  }
}

/** Interactive sessions start without a prompt: fall back to the first user message near the head. */
function firstUserMessage(headLines: string[]): string | undefined {
  for (const line of headLines) {
    // Cheap filter first; only candidate lines are parsed.
    if (!line.includes('"user_message"')) continue;
    const event = parseEvent(line);
    if (typeof event !== 'string' && event.type === 'user_message' && typeof event.text === 'string') {
      return event.text;
    }
  }
  return undefined;
}

function preview(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > PROMPT_PREVIEW_CHARS ? `${oneLine.slice(0, PROMPT_PREVIEW_CHARS - 1)}…` : oneLine;
}
