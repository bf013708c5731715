import { afterEach, expect, it } from 'vitest';
import { acpSetup, closeAcp, connectInProcess, initialized } from './support.js';

afterEach(closeAcp);

it("streams the model's reasoning as thought chunks, before the answer's message chunks", async () => {
  const { options, cwd } = await acpSetup([
    { thinking: { text: 'The user wants a greeting.', signature: 'sig-1' }, text: 'Hello.' },
  ]);
  const { agent, editor } = connectInProcess(options);
  await initialized(agent);
  const { sessionId } = await agent.request('session/new', { cwd, mcpServers: [] });
  const answer = await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] });
  expect(answer.stopReason).toBe('end_turn');
  expect(editor.text(sessionId, 'agent_thought_chunk')).toContain('The user wants a greeting.');
  expect(editor.text(sessionId)).toBe('Hello.');
  const kinds = editor.kinds(sessionId);
  expect(kinds.lastIndexOf('agent_thought_chunk')).toBeLessThan(kinds.indexOf('agent_message_chunk'));
});
