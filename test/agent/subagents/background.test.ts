import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../support/fake_model/types.js';
import { call, say, startParent } from '../../support/subagent_harness.js';

type Harness = Awaited<ReturnType<typeof startParent>>;
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** The child id a tool result in this request names. */
function childIdIn(req: RecordedRequest): string {
  const id = req.toolResults.map((r) => /agent_[0-9a-f]{8}/.exec(r.content)?.[0]).find(Boolean);
  if (!id) throw new Error('no child id in the tool results');
  return id;
}

describe('background children', () => {
  it('returns the id at once, runs on as a task read with task_output, and tells the parent when it ends', async () => {
    harness = await startParent({
      features: ['tasks'],
      reply: (sender, i, req) => {
        if (sender === 'parent') {
          if (i === 0)
            return call('use_subagent', { description: 'bg', prompt: 'work behind', background: true });
          if (i === 1) return call('task_output', { id: childIdIn(req), wait: 120 });
          return say('parent done');
        }
        return i === 0 ? call('glob', { pattern: '*' }) : say('the background result');
      },
    });
    const outcome = await harness.agent.send('do the task');
    expect(outcome.text).toBe('parent done');
    const results = harness.events.flatMap((e) => (e.type === 'tool_result' ? [e] : []));
    const started = results.find((r) => r.name === 'use_subagent')!;
    expect(started.result.text).toMatch(/agent_[0-9a-f]{8} \(general: bg\) runs in the background/);
    expect(started.result.data).toMatchObject({ agents: [{ status: 'running' }] });
    const output = results.find((r) => r.name === 'task_output')!;
    expect(output.result.text).toContain('[completed]');
    expect(output.result.text).toContain('the background result');
    expect(output.result.text).toContain('→ glob');

    // The note that it ended reached the parent's model before its next request.
    const last = harness.requestsOf('parent')[2];
    expect(JSON.stringify(last.body.messages)).toMatch(
      /Background subagent agent_[0-9a-f]{8} \(general: bg\) ended: completed/,
    );
    const id = childIdIn(harness.requestsOf('parent')[1]);
    expect(harness.runtime.tasks.get(id)).toMatchObject({
      kind: 'agent',
      status: 'completed',
      agent: { status: 'completed', sessionId: id },
    });
  });

  it('task_stop stops a running child: interrupted, its log closed with what it had', async () => {
    harness = await startParent({
      features: ['tasks'],
      reply: (sender, i, req) => {
        if (sender === 'parent') {
          if (i === 0) return call('use_subagent', { description: 'slow', prompt: 'hang', background: true });
          if (i === 1) return call('task_stop', { id: childIdIn(req) });
          return say('stopped it');
        }
        return { hang: true };
      },
    });
    const send = harness.agent.send('do the task');
    await send;
    const id = childIdIn(harness.requestsOf('parent')[1]);
    const task = harness.runtime.tasks.get(id)!;
    expect(task.status).toBe('stopped');
    expect(task.agent?.status).toBe('interrupted');
    const log = readFileSync(task.agent!.logPath, 'utf8');
    expect(log).toContain('"type":"session_end"');
    expect(log).toContain('"status":"interrupted"');
  });

  it('resume continues a finished child from its session log', async () => {
    harness = await startParent({
      reply: (sender, i, req) => {
        if (sender === 'parent') {
          if (i === 0) return call('use_subagent', { description: 'first', prompt: 'remember 42' });
          if (i === 1) return say('first done');
          if (i === 2)
            return call('use_subagent', {
              description: 'again',
              prompt: 'what was it?',
              resume: childIdIn(harness!.requestsOf('parent')[1]),
            });
          return say('second done');
        }
        return say(
          i === 0 ? 'noted 42' : `you said: ${JSON.stringify(req.body.messages).includes('remember 42')}`,
        );
      },
    });
    await harness.agent.send('do the task');
    await harness.agent.send('go on');
    const child = harness.requestsOf('remember 42');
    expect(child).toHaveLength(2);
    const messages = JSON.stringify(child[1].body.messages);
    expect(messages).toContain('noted 42');
    expect(messages).toContain('what was it?');
    const resumed = harness.events
      .filter((e) => e.type === 'tool_result' && e.name === 'use_subagent')
      .at(-1);
    expect(resumed?.type === 'tool_result' && resumed.result.text).toContain('you said: true');
  });
});
