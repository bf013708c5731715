export {
  AmbiguousSessionError,
  findSession,
  latestSession,
  listSessions,
  type SessionScope,
  type SessionSummary,
} from './catalog.js';
export { EXPORT_BLOCK_CHARS, exportMarkdown } from './export.js';
export { agentSessionsDir, newSessionId, sessionFolder } from './ids.js';
export { type CreateSessionLogOptions, MAX_EVENT_BYTES, type SessionEvent, SessionLog } from './log.js';
export { type ReadSessionLogResult, readSessionLog } from './read.js';
export { readSessionTail, type SessionTail } from './tail.js';
