import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { acpSetup, closeAcp, connectInProcess, initialized } from './support.js';

afterEach(closeAcp);

// A 1×1 PNG.
const PIXEL =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

it('sends an image, an attached selection and a file link of a prompt to the model', async () => {
  const { options, cwd, server } = await acpSetup([{ text: 'Seen.' }], { 'src/app.ts': 'export {};\n' });
  const { agent } = connectInProcess(options);
  await initialized(agent);
  const { sessionId } = await agent.request('session/new', { cwd, mcpServers: [] });
  const selection = join(cwd, 'src/app.ts');
  const answer = await agent.request('session/prompt', {
    sessionId,
    prompt: [
      { type: 'text', text: 'what is this?' },
      { type: 'image', mimeType: 'image/png', data: PIXEL },
      { type: 'resource', resource: { uri: `file://${selection}`, text: 'const answer = 42;' } },
      { type: 'resource_link', uri: `file://${join(cwd, 'README.md')}`, name: 'README.md' },
    ],
  });
  expect(answer.stopReason).toBe('end_turn');
  const [request] = server.requests.filter((r) => r.kind === 'model');
  const body = JSON.stringify(request.body);
  expect(body).toContain('what is this?');
  expect(body).toContain(PIXEL);
  expect(body).toContain(`<context path=\\"${selection}\\">\\nconst answer = 42;\\n</context>`);
  expect(body).toContain(`@${join(cwd, 'README.md')}`);
});

it('refuses audio, which it does not advertise, and the session goes on', async () => {
  const { options, cwd } = await acpSetup([{ text: 'Still here.' }]);
  const { agent, editor } = connectInProcess(options);
  await initialized(agent);
  const { sessionId } = await agent.request('session/new', { cwd, mcpServers: [] });
  await expect(
    agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'audio', mimeType: 'audio/wav', data: 'AAAA' }],
    }),
  ).rejects.toThrow(/audio content is not supported/);
  const answer = await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] });
  expect(answer.stopReason).toBe('end_turn');
  expect(editor.text(sessionId)).toBe('Still here.');
});
