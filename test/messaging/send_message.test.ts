import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MessageRouter } from '../../src/messaging/router.js';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import type { Recipient, RecipientSource } from '../../src/tool/context/messages.js';
import { tempDir } from '../support/runtime_fixtures.js';

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

/** A source of named agents that records what it delivers. */
function agents(names: Array<[name: string, id: string]>) {
  const delivered: Array<{ to: string; message: string; from: string }> = [];
  const source: RecipientSource = {
    list: () => names.map(([name, id]) => ({ kind: 'agent', name, id })),
    deliver: async (recipient, message, from) => {
      delivered.push({ to: recipient.id, message, from });
    },
  };
  return { source, delivered };
}

const runtimeIn = (features: string[]) =>
  createRuntime({ cwd: tempDir(), documentsRoot: tempDir('lathe-home-'), features, env: {} });

describe('send_message', () => {
  it('refuses an unknown recipient, listing the valid ones, and creates nothing', async () => {
    const runtime = runtimeIn(['swarms']);
    const children = agents([['researcher', 'agent_1a2b']]);
    runtime.messages.addSource(children.source);
    const made = await runtime.runTool('team_create', { name: 'builders', members: ['ann', 'bob'] });
    expect(made.isError, made.text).toBe(false);
    const before = filesUnder(runtime.sessionDir);

    const result = await runtime.runTool('send_message', { to: 'carol', message: 'hello' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^No recipient "carol"\. Valid recipients: /);
    for (const valid of [
      'researcher (agent, id agent_1a2b',
      'builders (team',
      'builders/ann (team',
      'builders/bob (team',
    ])
      expect(result.text).toContain(valid);
    expect(filesUnder(runtime.sessionDir)).toEqual(before);
    expect(children.delivered).toEqual([]);
    await runtime.dispose();
  });

  it('says who could be reached when no one can', async () => {
    const runtime = runtimeIn([]);
    const result = await runtime.runTool('send_message', { to: 'anyone', message: 'hello' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(
      /no one can receive messages here: no child agent is running, no team exists/,
    );
    await runtime.dispose();
  });

  it('reaches a child by name or id, signed by the lead, until its source is removed', async () => {
    const runtime = runtimeIn([]);
    const children = agents([['researcher', 'agent_1a2b']]);
    const remove = runtime.messages.addSource(children.source);
    expect((await runtime.runTool('send_message', { to: 'Researcher', message: 'first' })).text).toBe(
      'Sent to researcher (agent, id agent_1a2b).',
    );
    await runtime.runTool('send_message', { to: 'agent_1a2b', message: 'second' });
    expect(children.delivered).toEqual([
      { to: 'agent_1a2b', message: 'first', from: 'lead' },
      { to: 'agent_1a2b', message: 'second', from: 'lead' },
    ]);
    remove();
    expect((await runtime.runTool('send_message', { to: 'researcher', message: 'third' })).isError).toBe(
      true,
    );
    expect(children.delivered).toHaveLength(2);
    await runtime.dispose();
  });

  it('refuses a name two recipients share, naming their ids; an id picks one', async () => {
    const router = new MessageRouter(() => 'lead');
    const children = agents([['alice', 'agent_1']]);
    const others = agents([['alice', 'agent_2']]);
    router.addSource(children.source);
    router.addSource(others.source);
    await expect(router.send('alice', 'hi')).rejects.toThrow(
      /"alice" names 2 recipients: alice \(agent, id agent_1\); alice \(agent, id agent_2\)\. Send to one of their ids instead\./,
    );
    expect([...children.delivered, ...others.delivered]).toEqual([]);
    const sent: Recipient = await router.send('agent_2', 'hi');
    expect(sent.id).toBe('agent_2');
    expect(others.delivered).toEqual([{ to: 'agent_2', message: 'hi', from: 'lead' }]);
    expect(children.delivered).toEqual([]);
  });

  it('is read-only for plain text, not for a stop request', async () => {
    const runtime = runtimeIn([]);
    const tool = runtime.pool.find((t) => t.name === 'send_message')!;
    const facts = {} as never;
    expect(tool.isReadOnly({ to: 'a', message: 'hi' }, facts)).toBe(true);
    expect(tool.isReadOnly({ to: 'a', message: { type: 'stop_request' } }, facts)).toBe(false);
    expect(tool.dynamic.readOnly).toBe(true);
    const children = agents([['worker', 'agent_9']]);
    runtime.messages.addSource(children.source);
    const result = await runtime.runTool('send_message', {
      to: 'worker',
      message: { type: 'stop_request', reason: 'the build is fixed' },
    });
    expect(result.text).toBe('Sent a stop request to worker (agent, id agent_9).');
    expect(children.delivered[0].message).toMatch(/^\[stop request\] .*Reason: the build is fixed$/);
    await runtime.dispose();
  });
});

describe('send_message in Plan mode', () => {
  it('sends plain text without asking; a stop request asks, which a headless run cannot', async () => {
    const runtime = createRuntime({
      cwd: tempDir(),
      documentsRoot: tempDir('lathe-home-'),
      mode: 'plan',
      env: {},
    });
    const children = agents([['worker', 'agent_9']]);
    runtime.messages.addSource(children.source);
    expect((await runtime.runTool('send_message', { to: 'worker', message: 'status?' })).isError).toBe(false);
    const stop = await runtime.runTool('send_message', { to: 'worker', message: { type: 'stop_request' } });
    expect(stop).toMatchObject({ isError: true, text: expect.stringMatching(/lathe is in Plan mode/) });
    expect(children.delivered.map((d) => d.message)).toEqual(['status?']);
    await runtime.dispose();
  });
});
