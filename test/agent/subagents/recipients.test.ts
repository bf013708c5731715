import { afterEach, describe, expect, it } from 'vitest';
import type { Recipient } from '../../../src/tool/context/messages.js';
import { call, say, startParent } from '../../support/subagent_harness.js';

type Harness = Awaited<ReturnType<typeof startParent>>;
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("an agent's children as message recipients", () => {
  it('delivers to a running child before its next request, and refuses an ended one with how to go on', async () => {
    let delivered: Promise<void> | undefined;
    harness = await startParent({
      reply: (sender, i, req) => {
        if (sender === 'parent')
          return i === 0 ? call('use_subagent', { description: 'listener', prompt: 'listen' }) : say('ok');
        if (i === 0) return call('glob', { pattern: '*' });
        return say(
          JSON.stringify(req.body.messages).includes('Message from lead: use port 8080')
            ? 'got it'
            : 'nothing',
        );
      },
      onEvent: (event) => {
        // While the child runs its tool call, the lead writes to it.
        if (event.type === 'subagent' && event.event.type === 'tool_start' && !delivered) {
          const source = harness!.agent.subagents!.recipients();
          const [child] = source.list() as Recipient[];
          delivered = source.deliver(child, 'use port 8080', 'lead');
        }
      },
    });
    await harness.agent.send('do the task');
    await delivered;
    const source = harness.agent.subagents!.recipients();
    const [child] = source.list() as Recipient[];
    expect(child).toMatchObject({
      kind: 'agent',
      name: 'listener',
      description: 'general subagent, completed',
    });
    const result = harness.events.find((e) => e.type === 'tool_result' && e.name === 'use_subagent');
    expect(result?.type === 'tool_result' && result.result.text).toContain('got it');
    await expect(source.deliver(child, 'again', 'lead')).rejects.toThrow(
      new RegExp(
        `${child.id} is not running \\(completed\\); continue it with use_subagent \\{resume: "${child.id}"\\}`,
      ),
    );
  });
});

describe('a child as a team member', () => {
  it("gets its team's mail before its first request, once", async () => {
    harness = await startParent({
      features: ['swarms'],
      settings: { approvals: { subagents: 'allow' } },
      reply: (sender, i) => {
        if (sender !== 'parent') return say('read it');
        const steps = [
          call('team_create', { name: 'crew', members: ['scout'] }),
          call('send_message', { to: 'crew', message: 'MAIL-MARK-7: look in src/' }),
          call('use_subagent', { description: 'scout', prompt: 'look around' }),
        ];
        return steps[i] ?? say('done');
      },
    });
    await harness.agent.send('organise');
    const [first] = harness.requestsOf('look around');
    expect(JSON.stringify(first.body.messages)).toContain('MAIL-MARK-7: look in src/');
    const teams = harness.runtime.teams!;
    expect(await teams.takeUnread('scout')).toEqual([]);
  });
});

describe("a child's messages", () => {
  it("are signed with the child's name and id, the lead's still as lead", async () => {
    harness = await startParent({
      features: ['swarms'],
      settings: { approvals: { subagents: 'allow' } },
      reply: (sender, i) => {
        if (sender === 'parent') {
          const steps = [
            call('team_create', { name: 'crew', members: ['scout', 'boss'] }),
            call('send_message', { to: 'crew/boss', message: 'from the lead' }),
            call('use_subagent', { description: 'scout', prompt: 'report to boss' }),
          ];
          return steps[i] ?? say('done');
        }
        return i === 0 ? call('send_message', { to: 'crew/boss', message: 'found it' }) : say('sent');
      },
    });
    await harness.agent.send('organise');
    const started = harness.events.find((e) => e.type === 'subagent' && e.child.name === 'scout');
    const childId = started?.type === 'subagent' ? started.child.id : 'no child';
    const mail = await harness.runtime.teams!.mailbox('crew', 'boss');
    expect(mail.map((m) => [m.from, m.text])).toEqual([
      ['lead', 'from the lead'],
      [`scout (${childId})`, 'found it'],
    ]);
  });
});
