import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { WireJson } from '../../support/fake_model/types.js';
import { call, type Reply, say, startParent, subagentReports } from '../../support/subagent_harness.js';

type Harness = Awaited<ReturnType<typeof startParent>>;
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** The reports of the parent's first subagent call. */
const reports = subagentReports;

describe('use_subagents: children in parallel', () => {
  const tasks = ['one', 'two', 'three'].map((n) => ({ description: `task ${n}`, prompt: `do ${n}` }));
  const reply: Reply = (sender, i) => {
    if (sender === 'parent') return i === 0 ? call('use_subagents', { tasks }) : say('all done');
    // The first child works longest: two tool calls before its answer.
    if (sender === 'do one') return i < 2 ? call('glob', { pattern: `*${i}` }) : say('result one');
    return say(`result ${sender.slice(3)}`);
  };

  it('interleaves the children’s events in the parent’s stream and reports in call order', async () => {
    harness = await startParent({ reply });
    const outcome = await harness.agent.send('do the task');
    expect(outcome.text).toBe('all done');
    const { events } = harness;
    const at = (name: string, type: string, which: 'first' | 'last' = 'first') => {
      const indexes = events.flatMap((e, i) =>
        e.type === 'subagent' && e.child.name === name && e.event.type === type ? [i] : [],
      );
      return which === 'first' ? indexes[0] : indexes[indexes.length - 1];
    };
    // The third child started before the first one ended: their events interleave.
    expect(at('task three', 'user_message')).toBeLessThan(at('task one', 'done'));
    expect(at('task two', 'done')).toBeLessThan(at('task one', 'done'));
    const got = reports(events);
    expect(got.map((r) => r.text)).toEqual(['result one', 'result two', 'result three']);
    expect(got.map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
    expect(new Set(got.map((r) => r.id)).size).toBe(3);
    expect(got[0].usage).toMatchObject({ toolCalls: 2, inputTokens: 300, outputTokens: 60 });
    for (const e of events)
      if (e.type === 'subagent') expect(e.child).toMatchObject({ type: 'general', depth: 1 });
  });

  it('gives each child a session log of its own, linked to the parent session', async () => {
    harness = await startParent({ reply });
    await harness.agent.send('do the task');
    for (const report of reports(harness.events)) {
      expect(existsSync(report.logPath)).toBe(true);
      const lines = readFileSync(report.logPath, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines[0]).toMatchObject({
        type: 'session_start',
        id: report.sessionId,
        meta: { agent: { id: report.id, parentSessionId: harness.runtime.sessionId } },
      });
      expect(lines.at(-1)).toMatchObject({ type: 'session_end', status: 'completed' });
      expect(lines.some((l) => l.type === 'model_message')).toBe(true);
    }
  });
});

describe('agent types', () => {
  const reviewer = {
    name: 'reviewer',
    description: 'Reviews a change for bugs',
    prompt: 'MARKER-7f3a: review with care.',
    source: 'test',
    origin: 'lathe' as const,
  };

  it('lists every type in the type parameter, sends a custom body to the child, and the parent transcript only with fork', async () => {
    const tasks = [
      { description: 'fresh', prompt: 'review A', type: 'reviewer' },
      { description: 'forked', prompt: 'review B', type: 'reviewer', fork: true },
    ];
    harness = await startParent({
      agentTypes: [reviewer],
      reply: (sender, i) =>
        sender === 'parent' ? (i === 0 ? call('use_subagents', { tasks }) : say('ok')) : say('reviewed'),
    });
    await harness.agent.send('PARENT-SECRET-91: look at my change');
    const parentTools: WireJson[] = harness.requestsOf('parent')[0].body.tools;
    const typeText = parentTools.find((t) => t.name === 'use_subagent')?.input_schema.properties.type
      .description;
    for (const name of ['general', 'explore', 'plan', 'reviewer: Reviews a change for bugs'])
      expect(typeText).toContain(name);

    const children = harness.modelRequests().filter((r) => r.systemText?.includes('MARKER-7f3a'));
    expect(children).toHaveLength(2);
    const fresh = children.find((r) => JSON.stringify(r.body.messages).includes('review A'))!;
    const forked = children.find((r) => JSON.stringify(r.body.messages).includes('review B'))!;
    expect(JSON.stringify(fresh.body)).not.toContain('PARENT-SECRET-91');
    expect(JSON.stringify(forked.body.messages)).toContain('PARENT-SECRET-91');
    expect(reports(harness.events).map((r) => r.type)).toEqual(['reviewer', 'reviewer']);
  });

  it("gives explore children only tools that change nothing, on the provider's small model", async () => {
    const task = { description: 'look', prompt: 'find it', type: 'explore' };
    harness = await startParent({
      reply: (sender, i) =>
        sender === 'parent' ? (i === 0 ? call('use_subagent', task) : say('ok')) : say('found'),
    });
    await harness.agent.send('do the task');
    const [child] = harness.requestsOf('find it');
    expect(child.toolNames).toContain('read_file');
    expect(child.toolNames).toContain('search_files');
    for (const name of ['write_to_file', 'execute_command', 'use_subagent', 'ask_followup_question'])
      expect(child.toolNames).not.toContain(name);
    expect(child.systemText).toContain('You are exploring a codebase');
    expect(child.model).toBe('claude-haiku-4-5');
    expect(harness.requestsOf('parent')[0].model).toBe('claude-sonnet-4-5');
  });

  it('never offers a child the questions to the user or the plan-mode tools', async () => {
    harness = await startParent({
      reply: (sender, i) =>
        sender === 'parent'
          ? i === 0
            ? call('use_subagent', { description: 'a', prompt: 'general work' })
            : say('ok')
          : say('done'),
    });
    await harness.agent.send('do the task');
    const [parent] = harness.requestsOf('parent');
    const [child] = harness.requestsOf('general work');
    expect(parent.toolNames).toContain('ask_followup_question');
    for (const name of ['ask_followup_question', 'enter_plan_mode', 'make_plan', 'new_rule'])
      expect(child.toolNames).not.toContain(name);
    expect(child.toolNames).toContain('write_to_file');
  });
});

describe('bad requests start nothing', () => {
  it.each([
    [
      { description: 'x', prompt: 'y', type: 'nope' },
      /Unknown agent type "nope"\. Valid types: general, explore, plan/,
    ],
    [{ description: 'x' }, /prompt is missing: say what the child should do/],
    [{ description: 'x', prompt: '' }, /prompt is empty/],
    [{ description: 'x', prompt: 'y', resume: 'agent_00000000' }, /No child agent agent_00000000 to resume/],
    [{ description: 'x', prompt: 'y', resume: '../../etc' }, /is not a child agent's id/],
  ])('%j is an error naming what to fix', async (input, message) => {
    harness = await startParent({
      reply: (sender, i) => (i === 0 ? call('use_subagent', input) : say(`${sender} stopped`)),
    });
    await harness.agent.send('do the task');
    const result = harness.events.find((e) => e.type === 'tool_result');
    expect(result?.type === 'tool_result' && result.result.isError).toBe(true);
    expect(result?.type === 'tool_result' && result.result.text).toMatch(message);
    expect(harness.events.some((e) => e.type === 'subagent')).toBe(false);
  });
});
