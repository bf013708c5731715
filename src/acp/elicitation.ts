import type { AgentContext, ClientCapabilities, CreateElicitationRequest } from '@agentclientprotocol/sdk';
import type { Elicit, ElicitationAnswer, ElicitationRequest } from '../mcp/elicitation.js';

/**
 * An MCP server's questions passed to the editor as `elicitation/create`, when it offered
 * elicitation in `initialize` (forms, links or both); its answer goes back to the server, and a
 * link's completion follows as `elicitation/complete`. Undefined when the editor offered none:
 * the servers' questions are then declined.
 */
export function editorElicitation(
  sessionId: string,
  client: AgentContext,
  capabilities: ClientCapabilities | undefined,
): Elicit | undefined {
  const offered = capabilities?.elicitation;
  if (!offered?.form && !offered?.url) return undefined;
  return async (request, signal) => {
    if (!offered[request.mode]) return { action: 'decline' };
    let answer: ElicitationAnswer;
    try {
      const response = await client.request('elicitation/create', asked(sessionId, request), {
        cancellationSignal: signal,
      });
      answer = answerOf(response);
    } catch {
      return { action: signal.aborted ? 'cancel' : 'decline' };
    }
    if (request.mode === 'url' && answer.action === 'accept') {
      const { elicitationId } = request;
      void request.completed.then(() =>
        client.notify('elicitation/complete', { elicitationId }).catch(() => undefined),
      );
    }
    return answer;
  };
}

/** The question as the editor gets it: the server's words, its schema or link as sent. */
function asked(sessionId: string, request: ElicitationRequest): CreateElicitationRequest {
  const message = `MCP server "${request.server}": ${request.message}`;
  if (request.mode === 'url')
    return { sessionId, mode: 'url', message, url: request.url, elicitationId: request.elicitationId };
  return {
    sessionId,
    mode: 'form',
    message,
    requestedSchema: request.requestedSchema as Extract<
      CreateElicitationRequest,
      { mode: 'form' }
    >['requestedSchema'],
  };
}

/** The editor's answer; an action lathe does not know is a decline. */
function answerOf(response: { action: string; content?: unknown }): ElicitationAnswer {
  if (response.action === 'accept') {
    const content = response.content as Extract<ElicitationAnswer, { action: 'accept' }>['content'] | null;
    return content ? { action: 'accept', content } : { action: 'accept' };
  }
  return { action: response.action === 'cancel' ? 'cancel' : 'decline' };
}
