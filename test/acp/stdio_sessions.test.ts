import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, processesCarrying } from '../support/processes.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';
import { cleanUp, editorOn, fakeServer, startAgent } from './stdio_support.js';

afterEach(cleanUp);

describe('lathe acp sessions over a real stdio pipe', () => {
  it('runs a session, and loads it again in a new agent process after the first was killed', async () => {
    const server = await fakeServer([{ text: 'Before the restart.' }, { text: 'After the restart.' }]);
    const home = tempDir('lathe-home-');
    const cwd = writeTree({ 'a.txt': 'A' }, 'lathe-acp-');
    const first = startAgent(server, home);
    const one = editorOn(first.child);
    await one.agent.request('initialize', { protocolVersion: 1 });
    const { sessionId } = await one.agent.request('session/new', { cwd, mcpServers: [] });
    const answer = await one.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'remember this' }],
    });
    expect(answer.stopReason).toBe('end_turn');
    expect(one.editor.text(sessionId)).toBe('Before the restart.');
    first.child.kill('SIGKILL');
    await first.exited;

    const second = startAgent(server, home);
    const two = editorOn(second.child);
    await two.agent.request('initialize', { protocolVersion: 1 });
    await two.agent.request('session/load', { sessionId, cwd, mcpServers: [] });
    expect(two.editor.text(sessionId, 'user_message_chunk')).toBe('remember this');
    expect(two.editor.text(sessionId)).toBe('Before the restart.');
    await two.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go on' }] });
    expect(two.editor.text(sessionId)).toBe('Before the restart.After the restart.');
    const lastRequest = server.requests.filter((r) => r.kind === 'model').at(-1)!;
    expect(JSON.stringify(lastRequest.body.messages)).toContain('remember this');
  });

  it('ends the turn, saves the session and exits with no process left when the editor goes mid-turn', async () => {
    const server = await fakeServer([
      { toolCalls: [{ name: 'execute_command', input: { command: 'sleep 60' } }] },
      { text: 'never read' },
    ]);
    const home = tempDir('lathe-home-');
    const cwd = writeTree({}, 'lathe-acp-');
    const agentProcess = startAgent(server, home);
    const { agent, editor } = editorOn(agentProcess.child);
    await agent.request('initialize', { protocolVersion: 1 });
    const { sessionId } = await agent.request('session/new', { cwd, mcpServers: [] });
    void agent
      .request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'sleep' }] })
      .catch(() => undefined);
    await editor.waitFor(
      (u) =>
        u.update.sessionUpdate === 'tool_call_update' &&
        (u.update as { status?: string }).status === 'in_progress',
    );
    // The sleep runs; the editor goes away.
    await eventually(() => processesCarrying(agentProcess.token).length > 1);
    agentProcess.child.stdin.destroy();
    agentProcess.child.stdout.destroy();
    expect(await agentProcess.exited).toBe(0);
    await eventually(() => processesCarrying(agentProcess.token).length === 0);
    const logs = readdirSync(join(home, 'sessions'), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.jsonl'));
    expect(logs.some((f) => f.includes(sessionId))).toBe(true);
    const log = readFileSync(join(home, 'sessions', logs.find((f) => f.includes(sessionId))!), 'utf8');
    expect(log).toContain('"type":"session_end"');
  });
});
