import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../src/tool/run_call.js';
import { call, say, startParent, subagentReports } from '../../support/subagent_harness.js';

type Harness = Awaited<ReturnType<typeof startParent>>;
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const reports = subagentReports;

const parentCalls =
  (input: unknown, tool = 'use_subagent') =>
  (sender: string, i: number) =>
    sender === 'parent' ? (i === 0 ? call(tool, input) : say('parent done')) : undefined;

describe('budgets', () => {
  it('stops a child in a tool loop at agents.maxTurns: budget_exhausted, its partial text and transcript kept', async () => {
    harness = await startParent({
      settings: { agents: { maxTurns: 3 } },
      reply: (sender, i) =>
        parentCalls({ description: 'loop', prompt: 'loop forever' })(sender, i) ?? {
          text: `working on step ${i}`,
          toolCalls: [{ name: 'glob', input: { pattern: `*${i}` } }],
        },
    });
    const outcome = await harness.agent.send('do the task');
    expect(outcome.text).toBe('parent done');
    expect(harness.requestsOf('loop forever')).toHaveLength(3);
    const [report] = reports(harness.events);
    expect(report.status).toBe('budget_exhausted');
    expect(report.text).toContain('working on step 2');
    expect(report.text).toContain('limit of 3 model requests (agents.maxTurns)');
    expect(report.usage.toolCalls).toBe(3);
    const log = readFileSync(report.logPath, 'utf8');
    expect(log).toContain('"status":"budget_exhausted"');
    const result = harness.events.find((e) => e.type === 'tool_result');
    expect(result?.type === 'tool_result' && result.result.text).toContain(report.logPath);
  });

  it("lowers a child's turns to its type's maxTurns", async () => {
    harness = await startParent({
      agentTypes: [{ name: 'brief', description: 'Short', maxTurns: 2, source: 'test', origin: 'lathe' }],
      reply: (sender, i) =>
        parentCalls({ description: 'short', prompt: 'go', type: 'brief' })(sender, i) ??
        call('glob', { pattern: `*${i}` }),
    });
    await harness.agent.send('do the task');
    expect(harness.requestsOf('go')).toHaveLength(2);
    expect(reports(harness.events)[0]).toMatchObject({ status: 'budget_exhausted', type: 'brief' });
  });

  it('stops a child at agents.maxTokens', async () => {
    harness = await startParent({
      settings: { agents: { maxTokens: 1_000 } },
      reply: (sender, i) =>
        parentCalls({ description: 'big', prompt: 'spend' })(sender, i) ?? {
          ...call('glob', { pattern: `*${i}` }),
          usage: { inputTokens: 600, outputTokens: 10 },
        },
    });
    await harness.agent.send('do the task');
    const [report] = reports(harness.events);
    expect(report.status).toBe('budget_exhausted');
    expect(report.text).toContain('token budget of 1,000 tokens (agents.maxTokens)');
    expect(harness.requestsOf('spend')).toHaveLength(2);
    // Clients read a child's end from its done event: a budget's end, not an interrupt.
    const end = harness.events.find((e) => e.type === 'subagent' && e.event.type === 'done');
    expect(end?.type === 'subagent' && end.event.type === 'done' && end.event.outcome.kind).toBe('max_turns');
  });

  it('refuses new children once all of them together spent agents.tree.maxTokens', async () => {
    harness = await startParent({
      settings: { agents: { tree: { maxTokens: 500 } } },
      reply: (sender, i) =>
        parentCalls({ description: 'first', prompt: 'spend' })(sender, i) ?? {
          text: 'spent',
          usage: { inputTokens: 600, outputTokens: 10 },
        },
    });
    await harness.agent.send('do the task');
    const [report] = reports(harness.events);
    expect(report.status).toBe('budget_exhausted');
    await expect(
      harness.agent.subagents!.run([{ description: 'second', prompt: 'more' }], new AbortController().signal),
    ).rejects.toThrow(/token budget \(500 tokens, agents.tree.maxTokens\)/);
  });
});

describe('caps', () => {
  it('runs 10 children with agents.concurrency 4: never more than 4 at once, all 10 finish', async () => {
    const tasks = Array.from({ length: 10 }, (_, n) => ({ description: `c${n}`, prompt: `child ${n}` }));
    harness = await startParent({
      settings: { agents: { concurrency: 4 } },
      reply: (sender, i) =>
        parentCalls({ tasks }, 'use_subagents')(sender, i) ??
        (i === 0 ? call('glob', { pattern: '*' }) : say(`${sender} done`)),
    });
    await harness.agent.send('do the task');
    let running = 0;
    let most = 0;
    for (const e of harness.events) {
      if (e.type !== 'subagent') continue;
      if (e.event.type === 'user_message') most = Math.max(most, ++running);
      if (e.event.type === 'done') running--;
    }
    expect(most).toBe(4);
    const got = reports(harness.events);
    expect(got.map((r) => r.text)).toEqual(tasks.map((t) => `${t.prompt} done`));
    expect(got.every((r) => r.status === 'completed')).toBe(true);
  });

  it('offers the subagent tools down to agents.maxDepth and nests the events of a grandchild', async () => {
    harness = await startParent({
      reply: (sender, i) =>
        parentCalls({ description: 'child', prompt: 'level one' })(sender, i) ??
        (sender === 'level one' && i === 0
          ? call('use_subagent', { description: 'grandchild', prompt: 'level two' })
          : say(`${sender} done`)),
    });
    await harness.agent.send('do the task');
    expect(harness.requestsOf('parent')[0].toolNames).toContain('use_subagent');
    expect(harness.requestsOf('level one')[0].toolNames).toContain('use_subagent');
    // Depth 2 is the default limit: the grandchild is not offered the tools.
    expect(harness.requestsOf('level two')[0].toolNames).not.toContain('use_subagent');
    expect(harness.requestsOf('level two')[0].toolNames).not.toContain('use_subagents');
    const nested = harness.events.find(
      (e) => e.type === 'subagent' && e.event.type === 'subagent' && e.event.event.type === 'done',
    );
    expect(nested).toMatchObject({
      child: { name: 'child', depth: 1 },
      event: { child: { name: 'grandchild', depth: 2 }, event: { outcome: { text: 'level two done' } } },
    });
  });

  it('refuses a child past agents.maxDepth, and does not offer the tools there', async () => {
    harness = await startParent({ settings: { agents: { maxDepth: 0 } }, reply: () => say('alone') });
    expect(harness.runtime.pool.map((t) => t.name)).not.toContain('use_subagent');
    await expect(
      harness.agent.subagents!.run([{ description: 'x', prompt: 'y' }], new AbortController().signal),
    ).rejects.toThrow(/at depth 0 and children may nest only 0 deep \(agents.maxDepth\)/);
  });
});

describe("a child's approvals", () => {
  const reply = (sender: string, i: number) =>
    parentCalls({ description: 'writer', prompt: 'write it' })(sender, i) ??
    (i === 0 ? call('write_to_file', { path: 'out.txt', content: 'hi\n' }) : say('tried'));

  it('headless: an ask is denied at once with the reason, and the child goes on', async () => {
    harness = await startParent({ reply });
    await harness.agent.send('do the task');
    const result = harness.childEvents('writer').find((e) => e.type === 'tool_result');
    expect(result?.type === 'tool_result' && result.result.permissionDenial?.reason).toMatch(
      /needs approval/,
    );
    expect(result?.type === 'tool_result' && result.result.text).toMatch(/no one is present to approve it/);
    expect(existsSync(join(harness.dir, 'out.txt'))).toBe(false);
    expect(reports(harness.events)[0]).toMatchObject({ status: 'completed', text: 'tried' });
  });

  it("with a user: the request reaches the user's side tagged with the child", async () => {
    const asked: ApprovalRequest[] = [];
    harness = await startParent({
      reply,
      askUser: async (request) => {
        asked.push(request);
        return { approved: true };
      },
    });
    await harness.agent.send('do the task');
    expect(asked).toHaveLength(1);
    expect(asked[0].tool.name).toBe('write_to_file');
    expect(asked[0].agent).toMatchObject({ name: 'writer', type: 'general', depth: 1 });
    expect(asked[0].agent?.id).toBe(reports(harness.events)[0].id);
    expect(readFileSync(join(harness.dir, 'out.txt'), 'utf8')).toBe('hi\n');
  });
});

describe('wall time', () => {
  it('stops a child whose model does not answer at agents.maxSeconds', async () => {
    harness = await startParent({
      settings: { agents: { maxSeconds: 0.05 } },
      reply: (sender, i) =>
        parentCalls({ description: 'stuck', prompt: 'wait' })(sender, i) ?? { hang: true },
    });
    await harness.agent.send('do the task');
    const [report] = reports(harness.events);
    expect(report.status).toBe('budget_exhausted');
    expect(report.text).toContain('its time budget of 0.05 s (agents.maxSeconds)');
  });
});
