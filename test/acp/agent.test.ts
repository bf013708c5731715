import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../support/processes.js';
import { testNeeds } from '../support/required_programs.js';
import { acpSetup, closeAcp, connectInProcess, initialized } from './support.js';

afterEach(closeAcp);

/** Every path an update or permission request names: locations and diffs. */
function pathsIn(value: unknown): string[] {
  const found: string[] = [];
  const visit = (node: unknown, key?: string) => {
    if (Array.isArray(node)) for (const item of node) visit(item);
    else if (node && typeof node === 'object')
      for (const [k, v] of Object.entries(node)) {
        if (k === 'rawInput' || k === 'rawOutput') continue;
        visit(v, k);
      }
    else if (key === 'path' && typeof node === 'string') found.push(node);
  };
  visit(value);
  return found;
}

describe('lathe acp, with the SDK client as the editor', () => {
  it('answers initialize with protocol version 1, also to a client asking for a newer one, and true capabilities', async () => {
    const { options } = await acpSetup([]);
    const { agent } = connectInProcess(options);
    const answer = await agent.request('initialize', { protocolVersion: 7 });
    expect(answer.protocolVersion).toBe(1);
    expect(answer.agentCapabilities).toMatchObject({
      loadSession: true,
      promptCapabilities: { image: true, embeddedContext: true, audio: false },
      mcpCapabilities: { http: true, sse: true },
      sessionCapabilities: { list: {}, resume: {}, close: {} },
    });
    expect(answer.authMethods?.map((m) => m.id)).toEqual(['api-key']);
  });

  it('authenticates with a key at hand and says which variable to set without one', async () => {
    const { options } = await acpSetup([]);
    const { agent } = connectInProcess(options);
    await initialized(agent);
    await expect(agent.request('authenticate', { methodId: 'api-key' })).resolves.toEqual({});
    const keyless = connectInProcess({ ...options, apiKey: undefined, env: { PATH: process.env.PATH } });
    await initialized(keyless.agent);
    await expect(keyless.agent.request('authenticate', { methodId: 'api-key' })).rejects.toThrow(
      /ANTHROPIC_API_KEY/,
    );
  });

  it('streams a prompt turn as message chunks, with the modes, config options and commands of the session', async () => {
    const { options, cwd } = await acpSetup([{ text: 'Hello from lathe.' }], {
      '.agents/commands/review.md': '---\ndescription: Review the change\n---\nReview $ARGUMENTS',
    });
    const { agent, editor } = connectInProcess({ ...options, trust: true });
    await initialized(agent);
    const session = await agent.request('session/new', { cwd, mcpServers: [] });
    expect(session.modes?.availableModes.map((m) => m.id)).toEqual(['act', 'act-edits', 'plan']);
    expect(session.configOptions?.map((o) => o.id)).toEqual(['mode', 'model', 'profile']);
    const commands = await editor.waitFor((u) => u.update.sessionUpdate === 'available_commands_update');
    expect(commands.update).toMatchObject({
      availableCommands: [{ name: 'review', description: 'Review the change' }],
    });
    const answer = await agent.request('session/prompt', {
      sessionId: session.sessionId,
      prompt: [{ type: 'text', text: 'say hello' }],
    });
    expect(answer.stopReason).toBe('end_turn');
    expect(editor.text(session.sessionId)).toBe('Hello from lathe.');
  });

  it('asks before an edit with the diff at an absolute path, then reports the call completed', async () => {
    const { options, cwd, server } = await acpSetup([
      {
        toolCalls: [
          { id: 'toolu_w1', name: 'write_to_file', input: { path: 'notes/todo.txt', content: 'ship it\n' } },
        ],
      },
      { text: 'Written.' },
    ]);
    const { agent, editor } = connectInProcess(options);
    await initialized(agent);
    const { sessionId } = await agent.request('session/new', { cwd, mcpServers: [] });
    const answer = await agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'write the todo' }],
    });
    expect(answer.stopReason).toBe('end_turn');
    const file = join(cwd, 'notes/todo.txt');
    expect(readFileSync(file, 'utf8')).toBe('ship it\n');
    const [request] = editor.permissions;
    expect(request.toolCall).toMatchObject({
      toolCallId: 'toolu_w1',
      kind: 'edit',
      locations: [{ path: file }],
      content: expect.arrayContaining([{ type: 'diff', path: file, oldText: null, newText: 'ship it\n' }]),
    });
    expect(request.options.map((o) => o.kind)).toEqual([
      'allow_once',
      'allow_always',
      'reject_once',
      'reject_always',
    ]);
    const call = editor.updates.find((u) => u.update.sessionUpdate === 'tool_call');
    expect(call?.update).toMatchObject({ toolCallId: 'toolu_w1', kind: 'edit', status: 'pending' });
    const completed = editor.updates.find(
      (u) =>
        u.update.sessionUpdate === 'tool_call_update' &&
        (u.update as { status?: string }).status === 'completed',
    );
    expect(completed?.update).toMatchObject({ toolCallId: 'toolu_w1' });
    expect(server.requests.filter((r) => r.kind === 'model')).toHaveLength(2);
    // Every path of every update is absolute.
    const paths = pathsIn([...editor.updates, ...editor.permissions]);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.filter((path) => !isAbsolute(path))).toEqual([]);
  });

  testNeeds('bwrap')(
    'keeps "always allow" as the rule the UI would save, and does not ask again',
    async () => {
      const { options, cwd, lines } = await acpSetup([
        { toolCalls: [{ name: 'write_to_file', input: { path: 'notes/a.txt', content: 'one' } }] },
        { toolCalls: [{ name: 'write_to_file', input: { path: 'notes/b.txt', content: 'two' } }] },
        { text: 'Both.' },
      ]);
      const { agent, editor } = connectInProcess(options);
      editor.answer = 'allow_always';
      await initialized(agent);
      const { sessionId } = await agent.request('session/new', { cwd, mcpServers: [] });
      await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write both' }] });
      expect(readFileSync(join(cwd, 'notes/b.txt'), 'utf8')).toBe('two');
      expect(editor.permissions).toHaveLength(1);
      expect(lines).toEqual([]);
      const saved = JSON.parse(readFileSync(join(cwd, '.agents/settings.json'), 'utf8'));
      expect(saved.permissions.allow).toContain('write_to_file(notes/**)');
    },
  );

  it('refuses an edit in Plan mode with Strict Plan Mode, without asking', async () => {
    const { options, cwd } = await acpSetup([
      { toolCalls: [{ name: 'write_to_file', input: { path: 'plan.txt', content: 'x' } }] },
      { text: 'I will only plan.' },
    ]);
    const { agent, editor } = connectInProcess({
      ...options,
      settings: { ...options.settings, strictPlanMode: true },
    });
    await initialized(agent);
    const { sessionId } = await agent.request('session/new', { cwd, mcpServers: [] });
    await agent.request('session/set_mode', { sessionId, modeId: 'plan' });
    await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write it' }] });
    expect(existsSync(join(cwd, 'plan.txt'))).toBe(false);
    expect(editor.permissions).toEqual([]);
    const failed = editor.updates.find(
      (u) =>
        u.update.sessionUpdate === 'tool_call_update' &&
        (u.update as { status?: string }).status === 'failed',
    );
    expect(failed).toBeDefined();
    expect(editor.kinds(sessionId)).toContain('current_mode_update');
  });

  it('ends a cancelled turn as cancelled at once, and sends nothing of it after', async () => {
    const { options, cwd, server } = await acpSetup([{ hang: true }, { text: 'Next answer.' }]);
    const { agent, editor } = connectInProcess(options);
    await initialized(agent);
    const { sessionId } = await agent.request('session/new', { cwd, mcpServers: [] });
    const turn = agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'wait' }] });
    // The turn is under way once its model request has gone out.
    await eventually(() => server.requests.some((r) => r.kind === 'model'));
    const before = editor.updates.length;
    await agent.notify('session/cancel', { sessionId });
    // The model request hangs for ever: the turn can only end if the cancel does not wait for it.
    expect((await turn).stopReason).toBe('cancelled');
    const after = editor.updates.length;
    // The session goes on: the next prompt is answered.
    const next = await agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'again' }],
    });
    expect(next.stopReason).toBe('end_turn');
    expect(editor.text(sessionId)).toBe('Next answer.');
    expect(after).toBe(before);
  });

  it('lists, resumes, loads (replaying the conversation) and closes sessions', async () => {
    const { options, cwd } = await acpSetup([{ text: 'First answer.' }, { text: 'Second answer.' }]);
    const first = connectInProcess(options);
    await initialized(first.agent);
    const { sessionId } = await first.agent.request('session/new', { cwd, mcpServers: [] });
    await first.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'first question' }],
    });
    await first.agent.request('session/close', { sessionId });
    const listed = await first.agent.request('session/list', { cwd });
    expect(listed.sessions.map((s) => s.sessionId)).toContain(sessionId);

    const second = connectInProcess(options);
    await initialized(second.agent);
    await second.agent.request('session/load', { sessionId, cwd, mcpServers: [] });
    expect(second.editor.text(sessionId, 'user_message_chunk')).toBe('first question');
    expect(second.editor.text(sessionId)).toBe('First answer.');
    await second.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'and then?' }],
    });
    expect(second.editor.text(sessionId)).toBe('First answer.Second answer.');
    await second.agent.request('session/close', { sessionId });
    const resumed = await second.agent.request('session/resume', { sessionId, cwd });
    expect(resumed.modes?.currentModeId).toBe('act');
  });

  it('switches model and profile through the config options', async () => {
    const { options, cwd, server } = await acpSetup([{ text: 'From the other model.' }]);
    const { agent } = connectInProcess(options);
    await initialized(agent);
    const { sessionId } = await agent.request('session/new', { cwd, mcpServers: [] });
    const changed = await agent.request('session/set_config_option', {
      sessionId,
      configId: 'model',
      value: 'anthropic/claude-haiku-4-5',
    });
    expect(changed.configOptions.find((o) => o.id === 'model')).toMatchObject({
      currentValue: 'anthropic/claude-haiku-4-5',
    });
    const profile = await agent.request('session/set_config_option', {
      sessionId,
      configId: 'profile',
      value: 'simple',
    });
    expect(profile.configOptions.find((o) => o.id === 'profile')).toMatchObject({ currentValue: 'simple' });
    await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] });
    const [request] = server.requests.filter((r) => r.kind === 'model');
    expect(request.model).toBe('claude-haiku-4-5');
    // The simple profile's three tools (and the test-only ones of NODE_ENV=test).
    expect(request.toolNames).toEqual(expect.arrayContaining(['edit_file', 'execute_command', 'read_file']));
    expect(request.toolNames).not.toContain('write_to_file');
  });

  it('answers a prompt for an unknown session and a bad mode with an error, and stays up', async () => {
    const { options, cwd } = await acpSetup([{ text: 'Still here.' }]);
    const { agent, editor } = connectInProcess(options);
    await initialized(agent);
    await expect(
      agent.request('session/prompt', {
        sessionId: 'no-such-session',
        prompt: [{ type: 'text', text: 'hi' }],
      }),
    ).rejects.toThrow(/no session no-such-session/);
    const { sessionId } = await agent.request('session/new', { cwd, mcpServers: [] });
    await expect(agent.request('session/set_mode', { sessionId, modeId: 'turbo' })).rejects.toThrow(
      /no mode "turbo"/,
    );
    await expect(agent.request('session/new', { cwd: 'relative/dir', mcpServers: [] })).rejects.toThrow(
      /absolute/,
    );
    await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] });
    expect(editor.text(sessionId)).toBe('Still here.');
  });
});
