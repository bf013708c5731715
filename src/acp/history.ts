import type { SessionInfo, SessionUpdate } from '@agentclientprotocol/sdk';
import type { AgentEvent } from '../agent/events.js';
import { runtimePlaces } from '../runtime/create_runtime.js';
import type { SdkEventMessage } from '../sdk/messages.js';
import { eventRecord } from '../sdk/records.js';
import { findSession, listSessions, type SessionSummary } from '../session/catalog.js';
import { readSessionLog } from '../session/read.js';
import type { UpdateMapper } from './updates.js';

/** The records of a log that are the conversation's events, not its model messages or bookkeeping. */
const NOT_EVENTS = new Set(['session_start', 'session_end', 'model_message', 'compacted_messages', 'done']);

/** The session of this folder with this id; undefined when there is none (another folder's included). */
export function findLoggedSession(
  places: { cwd: string; documentsRoot?: string; env?: NodeJS.ProcessEnv },
  id: string,
): SessionSummary | undefined {
  const { workspace, documentsRoot } = runtimePlaces(places);
  try {
    const found = findSession(documentsRoot, workspace, id);
    return found && found.id === id ? found : undefined;
  } catch {
    return undefined;
  }
}

/** A session log's conversation as the updates that show it again: messages, tool calls, plans. */
export function replayUpdates(path: string, mapper: UpdateMapper): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  for (const event of readSessionLog(path).events) {
    if (NOT_EVENTS.has(event.type)) continue;
    const record = eventRecord(event as unknown as AgentEvent);
    if (record) updates.push(...mapper.map(record as unknown as SdkEventMessage, true));
  }
  return updates;
}

/** The sessions of a folder (newest first), as `session/list` gives them. */
export function sessionInfos(places: {
  cwd: string;
  documentsRoot?: string;
  env?: NodeJS.ProcessEnv;
}): SessionInfo[] {
  const scope = runtimePlaces(places);
  return listSessions(scope).map((session) => ({
    sessionId: session.id,
    cwd: session.workspace ?? scope.workspace,
    ...(session.firstPrompt ? { title: session.firstPrompt } : {}),
    updatedAt: session.updated,
  }));
}
