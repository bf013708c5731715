import * as fs from 'node:fs';
import { basename, join } from 'node:path';
import { legacySessionsDir, sessionsDir } from '../config/paths.js';
import { parseEvent } from './event.js';
import { type FileLine, forEachLine } from './lines.js';

/** What `lathe sessions` and `--continue` know of a session without reading all of its log. */
export interface SessionSummary {
  id: string;
  path: string;
  /** The `session_start` time, or the file's birth time when that record is missing. */
  started: string;
  /** The log's last modification time. */
  updated: string;
  /** `meta.prompt` of `session_start`, else the first `user_message` near the head; one line, capped. */
  firstPrompt?: string;
  /** Complete lines in the log (counted, not parsed); listings only. */
  events?: number;
  /** The workspace recorded in `session_start`: the folder the session's tools ran in. */
  workspace?: string;
  /** Whether the model ever answered; a run that failed before any reply is not offered to `--continue`. */
  replied: boolean;
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

/** This workspace's sessions, most recently updated first. */
export function listSessions(scope: SessionScope): SessionSummary[] {
  return sortNewestFirst(workspaceSessionFiles(scope).map((file) => summarize(file, true)));
}

/**
 * The session `--continue` resumes: the most recently updated one of this workspace that the
 * model answered at least once (a run that failed at its first request has nothing to go on from).
 */
export function latestSession(scope: SessionScope): SessionSummary | undefined {
  const byAge = workspaceSessionFiles(scope)
    .map((file) => ({ file, mtime: fs.statSync(file).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime || compareDesc(basename(a.file), basename(b.file)));
  for (const { file } of byAge) {
    const summary = summarize(file, false);
    if (summary.replied) return summary;
  }
  return undefined;
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
 * project's folder (a user may look a session up by id from elsewhere). An exact id beats
 * prefixes. Returns undefined when nothing matches; throws `AmbiguousSessionError` on several.
 */
export function findSession(
  documentsRoot: string,
  workspace: string,
  idOrPrefix: string,
): SessionSummary | undefined {
  const wanted = idOrPrefix.trim().replace(/\.jsonl$/, '');
  if (wanted === '') return undefined;
  const ownFiles = workspaceSessionFiles({ documentsRoot, workspace });
  const inOwn = pickMatch(ownFiles, wanted);
  if (inOwn) return summarize(inOwn, false);
  const root = join(documentsRoot, 'sessions');
  const own = new Set(ownFiles);
  const others = subfolders(root)
    .flatMap((name) => sessionFiles(join(root, name)))
    .filter((file) => !own.has(file));
  const inOthers = pickMatch(others, wanted);
  return inOthers ? summarize(inOthers, false) : undefined;
}

/**
 * The logs of exactly this workspace: its own folder, and those of its sessions that older
 * versions kept in a folder shared with look-alike paths (`/x/a-b` and `/x/a/b`).
 */
function workspaceSessionFiles(scope: SessionScope): string[] {
  const own = sessionFiles(sessionsDir(scope.documentsRoot, scope.workspace));
  const legacy = sessionFiles(legacySessionsDir(scope.documentsRoot, scope.workspace)).filter(
    (file) => summarize(file, false).workspace === scope.workspace,
  );
  return [...own, ...legacy];
}

/** The one file matching `wanted`, or undefined for none; throws when several match. */
function pickMatch(files: string[], wanted: string): string | undefined {
  const exact = files.filter((file) => basename(file, '.jsonl') === wanted);
  const matches =
    exact.length > 0 ? exact : files.filter((file) => basename(file, '.jsonl').startsWith(wanted));
  if (matches.length > 1)
    throw new AmbiguousSessionError(wanted, sortNewestFirst(matches.map((file) => summarize(file, false))));
  return matches[0];
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

/** A summary from the file's head and stat; `countLines` reads on to count the log's lines. */
function summarize(path: string, countLines: boolean): SessionSummary {
  const stat = fs.statSync(path);
  const { head, lines, headEnd } = scanLog(path, countLines);
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
    // A log longer than its head has gone on past a first failed request.
    replied: headEnd < stat.size || headLines.some(isAssistantMessage),
  };
  if (countLines) summary.events = lines;
  if (prompt !== undefined) summary.firstPrompt = preview(prompt);
  if (typeof start?.workspace === 'string') summary.workspace = start.workspace;
  return summary;
}

/**
 * Reads the log's head as text (at least `HEAD_BYTES`, and its whole first line up to
 * `MAX_HEAD_BYTES`) and, when asked, counts its newline-ended lines through to the end.
 * `headEnd` is where the head stops in the file.
 */
function scanLog(path: string, countLines: boolean): { head: string; lines: number; headEnd: number } {
  const headLines: Buffer[] = [];
  let headEnd = 0;
  let lines = 0;
  const visit = (line: FileLine) => {
    if (!line.unterminated) lines++;
    const inHead = headEnd < HEAD_BYTES || lines <= 1;
    if (inHead && !line.oversized && line.start + line.bytes.length <= MAX_HEAD_BYTES) {
      headLines.push(Buffer.from(line.bytes));
      headEnd = line.start + line.bytes.length + 1;
    } else if (!countLines) return false;
  };
  forEachLine(path, visit, countLines ? Number.POSITIVE_INFINITY : MAX_HEAD_BYTES);
  return { head: headLines.map((bytes) => bytes.toString('utf8')).join('\n'), lines, headEnd };
}

function isAssistantMessage(line: string): boolean {
  return line.includes('"type":"model_message"') && line.includes('"role":"assistant"');
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
