export { EXPORT_BLOCK_CHARS, exportMarkdown } from './export.js';
export { newSessionId, sessionFolder } from './ids.js';
export { type CreateSessionLogOptions, MAX_EVENT_BYTES, type SessionEvent, SessionLog } from './log.js';
export {
  AmbiguousSessionError,
  findSession,
  latestSession,
  listSessions,
  type ReadSessionLogResult,
  readSessionLog,
  type SessionScope,
  type SessionSummary,
} from './read.js';
