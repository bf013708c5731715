import { afterEach, expect, it } from 'vitest';
import type { ScriptedTurn } from '../support/fake_model_server.js';
import { fakeServerBySender } from '../support/subagent_harness.js';
import { acpSetup, closeAcp, connectInProcess, initialized } from './support.js';

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await closeAcp();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** The parent starts a child that lists files, then answers. */
function reply(sender: string, index: number): ScriptedTurn {
  if (sender === 'parent')
    return index === 0
      ? {
          toolCalls: [
            {
              id: 'toolu_a1',
              name: 'use_subagent',
              input: { description: 'lister', prompt: 'list the files' },
            },
          ],
        }
      : { text: 'The child listed them.' };
  return index === 0 ? { toolCalls: [{ name: 'glob', input: { pattern: '*' } }] } : { text: 'No files.' };
}

it("shows a child agent as the tool call that started it, its progress in that call's updates", async () => {
  const server = await fakeServerBySender(reply);
  servers.push(server);
  const { options, cwd } = await acpSetup([]);
  const { agent, editor } = connectInProcess({ ...options, baseUrl: server.baseUrl('anthropic') });
  await initialized(agent);
  const { sessionId } = await agent.request('session/new', { cwd, mcpServers: [] });
  const answer = await agent.request('session/prompt', {
    sessionId,
    prompt: [{ type: 'text', text: 'delegate' }],
  });
  expect(answer.stopReason).toBe('end_turn');
  const ofCall = editor.updates
    .map(
      (u) =>
        u.update as {
          sessionUpdate: string;
          toolCallId?: string;
          kind?: string;
          status?: string;
          content?: unknown;
        },
    )
    .filter((u) => u.toolCallId === 'toolu_a1');
  expect(ofCall[0]).toMatchObject({ sessionUpdate: 'tool_call', kind: 'other' });
  // While the child runs, its steps show in the call's content.
  const progress = ofCall.filter(
    (u) => u.status === 'in_progress' && JSON.stringify(u.content ?? '').includes('lister: Glob *'),
  );
  expect(progress.length).toBeGreaterThan(0);
  expect(ofCall.at(-1)).toMatchObject({ status: 'completed' });
  // The child's own calls are not shown as calls of the session.
  const calls = editor.updates.filter((u) => u.update.sessionUpdate === 'tool_call');
  expect(calls.map((u) => (u.update as { toolCallId: string }).toolCallId)).toEqual(['toolu_a1']);
  expect(editor.text(sessionId)).toBe('The child listed them.');
});
