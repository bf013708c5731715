import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { agentSessionsDir } from '../../session/ids.js';
import { readSessionTail } from '../../session/tail.js';
import type { ConversationMessage } from '../model_stream.js';
import { historyFromEvents } from '../session_history.js';

/** A child's id: also its session id and the name of its log. */
const CHILD_ID = /^agent_[0-9a-f]{8}$/;

/** Where a child's session log is. */
export function childLogPath(documentsRoot: string, workspace: string, id: string): string {
  return join(agentSessionsDir(documentsRoot, workspace), `${id}.jsonl`);
}

/** What the child's session log says about it, for going on with it. */
export interface StoredChild {
  id: string;
  logPath: string;
  type: string;
  name: string;
  history: ConversationMessage[];
  /** Damaged records skipped while reading the log. */
  warnings: string[];
}

/**
 * A finished or interrupted child, read back from its session log (this process's or an earlier
 * one's); an Error the model can act on when there is none by that id.
 */
export function readStoredChild(documentsRoot: string, workspace: string, id: string): StoredChild {
  if (!CHILD_ID.test(id))
    throw new Error(
      `"${id}" is not a child agent's id (they look like agent_1a2b3c4d; use_subagent returns them).`,
    );
  const logPath = childLogPath(documentsRoot, workspace, id);
  if (!existsSync(logPath))
    throw new Error(`No child agent ${id} to resume in this workspace (no session log at ${logPath}).`);
  const tail = readSessionTail(logPath);
  const agent = (tail.start?.meta as { agent?: { type?: unknown; name?: unknown } } | undefined)?.agent;
  return {
    id,
    logPath,
    type: typeof agent?.type === 'string' ? agent.type : 'general',
    name: typeof agent?.name === 'string' ? agent.name : id,
    history: historyFromEvents(tail.conversation),
    warnings: tail.warnings,
  };
}
