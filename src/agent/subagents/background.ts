import type {
  SubagentReport,
  SubagentRequest,
  SubagentStatus,
  SubagentTag,
} from '../../tool/context/agents.js';
import type { BackgroundTask, TaskStatus } from '../../tool/context/tasks.js';

/** The note a parent's model gets when a background child ends; long text points at the file. */
const NOTE_CHARS = 8_000;

/** A background child as a task of the runtime's task table. */
export function backgroundTask(
  tag: SubagentTag,
  request: SubagentRequest,
  outputPath: string,
  logPath: string,
  stop: () => void,
): BackgroundTask {
  return {
    id: tag.id,
    subject: `${tag.type} subagent: ${tag.name}`,
    description: request.prompt,
    status: 'running',
    createdAt: Date.now(),
    outputPath,
    readOffset: 0,
    kind: 'agent',
    agent: { type: tag.type, status: 'running', sessionId: tag.id, logPath },
    kill: stop,
  };
}

/** How a task table shows a child's end. */
export function taskStatusOf(status: SubagentStatus): TaskStatus {
  if (status === 'completed') return 'completed';
  if (status === 'interrupted') return 'stopped';
  return status === 'running' ? 'running' : 'failed';
}

/** What the parent is told when a background child ends: its status and final text. */
export function endNote(report: SubagentReport): string {
  const text =
    report.text.length > NOTE_CHARS
      ? `${report.text.slice(0, NOTE_CHARS)}\n[… cut; the whole text is in task_output ${report.id}]`
      : report.text;
  return `Background subagent ${report.id} (${report.type}: ${report.name}) ended: ${report.status.replace('_', ' ')}.\n${text}`;
}
