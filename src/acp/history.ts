import type { SessionInfo, SessionUpdate } from '@agentclientprotocol/sdk';
import type { AgentEvent } from '../agent/events.js';
import { readAgentEvent, type StoredAgentEvent } from '../agent/stored_events.js';
import { runtimePlaces } from '../runtime/create_runtime.js';
import type { SdkEventMessage } from '../sdk/messages.js';
import { eventRecord } from '../sdk/records.js';
import { findSession, listSessions, type SessionSummary } from '../session/catalog.js';
import { readSessionLog } from '../session/read.js';
import type { UpdateMapper } from './updates.js';

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
  for (const stored of readSessionLog(path).events) {
    const event = conversationEvent(readAgentEvent(stored));
    const record = event && eventRecord(event);
    if (record) updates.push(...mapper.map(record as unknown as SdkEventMessage, true));
  }
  return updates;
}

/** The stored event when it is one of the conversation's, not its model messages or bookkeeping. */
function conversationEvent(event: StoredAgentEvent): AgentEvent | undefined {
  switch (event.type) {
    case 'session_start':
    case 'session_resumed':
    case 'settings_change':
    case 'session_end':
    case 'model_message':
    case 'compacted_messages':
    case 'done':
    case 'unknown':
      return undefined;
    case 'user_message':
    case 'request_start':
    case 'assistant_text':
    case 'tool_call':
    case 'tool_start':
    case 'tool_result':
    case 'retry':
    case 'mode_change':
    case 'question':
    case 'compaction':
    case 'notice':
    case 'error':
    case 'subagent':
    case 'working':
    case 'plan':
    case 'phase_report':
    case 'report':
    case 'todo':
    case 'brief':
    case 'user_file':
    case 'notification':
    case 'approval_request':
    case 'approval_answer':
      return event;
    default:
      return event satisfies never;
  }
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
