import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { acpSetup, closeAcp, connectInProcess } from './support.js';

afterEach(closeAcp);

it("reads the editor's unsaved buffer and writes the edit there when the editor offers its files", async () => {
  const { options, cwd, server } = await acpSetup(
    [
      { toolCalls: [{ id: 'toolu_r1', name: 'read_file', input: { path: 'notes.txt' } }] },
      {
        toolCalls: [
          {
            id: 'toolu_e1',
            name: 'replace_in_file',
            input: {
              path: 'notes.txt',
              diff: '------- SEARCH\nunsaved line\n=======\nedited line\n+++++++ REPLACE',
            },
          },
        ],
      },
      { text: 'Edited.' },
    ],
    { 'notes.txt': 'unsaved line\nonly on disk\n' },
  );
  const file = join(cwd, 'notes.txt');
  const { agent, editor } = connectInProcess(options);
  const { buffers } = editor;
  buffers.set(file, 'unsaved line\n');
  await agent.request('initialize', {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
  });
  const { sessionId } = await agent.request('session/new', { cwd, mcpServers: [] });
  const answer = await agent.request('session/prompt', {
    sessionId,
    prompt: [{ type: 'text', text: 'edit it' }],
  });
  expect(answer.stopReason).toBe('end_turn');
  // The model read the buffer, not the disk.
  const models = server.requests.filter((r) => r.kind === 'model');
  expect(JSON.stringify(models[1].body)).toContain('unsaved line');
  expect(JSON.stringify(models[1].body)).not.toContain('only on disk');
  // The edit landed in the editor; the disk is as it was.
  expect(buffers.get(file)).toBe('edited line\n');
  expect(readFileSync(file, 'utf8')).toBe('unsaved line\nonly on disk\n');
  // The permission request's diff is of the buffer the edit changes.
  const asked = editor.permissions.find((p) => p.toolCall.toolCallId === 'toolu_e1');
  expect(asked?.toolCall.content).toEqual(
    expect.arrayContaining([
      { type: 'diff', path: file, oldText: 'unsaved line\n', newText: 'edited line\n' },
    ]),
  );
});
