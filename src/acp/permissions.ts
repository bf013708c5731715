import type {
  AgentContext,
  PermissionOption,
  SessionUpdate,
  ToolCallContent,
  ToolCallUpdate,
} from '@agentclientprotocol/sdk';
import type { CanUseTool, PermissionAnswer, PermissionQuestion } from '../sdk/options.js';
import type { UpdateMapper } from './updates.js';

/** What the approvals of one session work with. */
export interface ApprovalSession {
  readonly id: string;
  readonly client: AgentContext;
  readonly mapper: UpdateMapper;
  /** Act with edits approved: edits inside the workspace need no answer. */
  autoEdits(): boolean;
  notify(update: SessionUpdate): void;
}

const OPTIONS: Record<string, PermissionOption> = {
  allowOnce: { optionId: 'allow-once', name: 'Allow', kind: 'allow_once' },
  allowAlways: { optionId: 'allow-always', name: 'Always allow', kind: 'allow_always' },
  rejectOnce: { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
  rejectAlways: { optionId: 'reject-always', name: 'Always reject', kind: 'reject_always' },
};

/**
 * The session's `canUseTool`: each ask becomes a `session/request_permission` carrying the call
 * (its command, absolute paths, the edit's diff). "Always" keeps the rules the UI's "don't ask
 * again" would, in the project's settings; a turn cancelled while it waits is a refusal.
 */
export function editorApprovals(session: ApprovalSession): CanUseTool {
  return async (toolName, input, question) => {
    if (session.autoEdits() && question.category === 'edit' && !question.sticky) return { behavior: 'allow' };
    const toolCall = shownCall(session, toolName, input, question);
    const remembers = question.suggestedRules.length > 0;
    const options = [
      OPTIONS.allowOnce,
      ...(remembers ? [OPTIONS.allowAlways] : []),
      OPTIONS.rejectOnce,
      ...(remembers ? [OPTIONS.rejectAlways] : []),
    ];
    const cancelled = new Promise<'cancelled'>((resolve) => {
      if (question.signal.aborted) resolve('cancelled');
      question.signal.addEventListener('abort', () => resolve('cancelled'), { once: true });
    });
    const asked = session.client
      .request(
        'session/request_permission',
        { sessionId: session.id, toolCall, options },
        { cancellationSignal: question.signal },
      )
      .then((response) => (response.outcome.outcome === 'selected' ? response.outcome.optionId : 'cancelled'))
      .catch(() => 'cancelled');
    const choice = await Promise.race([asked, cancelled]);
    return answerFor(choice, question);
  };
}

function answerFor(choice: string, question: PermissionQuestion): PermissionAnswer {
  switch (choice) {
    case OPTIONS.allowOnce.optionId:
      return { behavior: 'allow' };
    case OPTIONS.allowAlways.optionId:
      return { behavior: 'allow', remember: 'project' };
    case OPTIONS.rejectAlways.optionId:
      return { behavior: 'deny', message: 'the user rejected this, and calls like it', remember: 'project' };
    case OPTIONS.rejectOnce.optionId:
      return { behavior: 'deny', message: 'the user rejected this call' };
    default:
      return {
        behavior: 'deny',
        message: question.signal.aborted ? 'the turn was cancelled' : 'the user dismissed the question',
      };
  }
}

/**
 * The call the question is about, as the editor shows it. A child agent's call was never shown
 * (its progress is a line of the call that started it): it is announced first, under its own id.
 */
function shownCall(
  session: ApprovalSession,
  toolName: string,
  input: unknown,
  question: PermissionQuestion,
): ToolCallUpdate {
  const id = question.agent ? `${question.agent.id}/${question.toolUseId}` : question.toolUseId;
  const described = session.mapper.describeCall(id, toolName, input);
  if (question.change) session.mapper.setChange(id, question.change);
  const content: ToolCallContent[] = [...session.mapper.diffsOf(id)];
  const command = (input as { command?: unknown } | null)?.command;
  if (content.length === 0 && typeof command === 'string')
    content.push({ type: 'content', content: { type: 'text', text: `$ ${command}` } });
  content.push({ type: 'content', content: { type: 'text', text: question.reason } });
  if (question.agent) {
    const title = `${question.agent.name}: ${described.title}`;
    session.notify({ sessionUpdate: 'tool_call', ...described, title, status: 'pending', content });
    return { ...described, title, status: 'pending', content };
  }
  return { ...described, status: 'pending', content };
}
