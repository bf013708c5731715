import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { latheAsync } from '../../support/cli.js';
import type { RecordedRequest } from '../../support/fake_model/types.js';
import type { FakeModelServer } from '../../support/fake_model_server.js';
import { fakeModelEnv, streamEvents } from '../../support/headless_run.js';
import { tempDir } from '../../support/runtime_fixtures.js';
import { call, fakeServerBySender, type Reply, say, senderOf } from '../../support/subagent_harness.js';

const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** One `lathe -p` process against a fake server answering by sender. */
async function lathe(dir: string, home: string, prompt: string, reply: Reply, format = 'json') {
  const server = await fakeServerBySender(reply);
  servers.push(server);
  const result = await latheAsync(
    ['-p', prompt, '--model', 'anthropic/claude-sonnet-4-5', '--feature', 'tasks', '--output-format', format],
    { cwd: dir, env: fakeModelEnv(server, home) },
  );
  const requests = server.requests.filter((r) => r.kind === 'model');
  return { ...result, requests, of: (sender: string) => requests.filter((r) => senderOf(r) === sender) };
}

const childIdIn = (req: RecordedRequest) =>
  req.toolResults.map((r) => /agent_[0-9a-f]{8}/.exec(r.content)?.[0]).find(Boolean) ?? 'none';

describe('a background child across two runs of lathe', () => {
  it('is read through task_output in the first run, streamed tagged in stream-json, and resumed by id in the second', async () => {
    const dir = tempDir();
    const home = tempDir('lathe-home-');
    let id = '';
    const first = await lathe(
      dir,
      home,
      'start it',
      (sender, i, req) => {
        if (sender !== 'parent') return i === 0 ? call('glob', { pattern: '*' }) : say('first answer: 42');
        if (i === 0)
          return call('use_subagent', { description: 'bg', prompt: 'keep a number', background: true });
        if (i === 1) {
          id = childIdIn(req);
          return call('task_output', { id, wait: 120 });
        }
        return say('run one done');
      },
      'stream-json',
    );
    expect(first.code, first.stderr).toBe(0);
    const records = streamEvents(first.stdout);
    const output = records.find((r) => r.type === 'tool_result' && r.name === 'task_output');
    expect(output?.text).toContain('first answer: 42');
    const childText = records.find((r) => r.type === 'subagent' && r.event.type === 'assistant_text');
    expect(childText).toMatchObject({
      agent: { id, name: 'bg', type: 'general', depth: 1 },
      event: { text: 'first answer: 42' },
    });
    expect(
      records.some((r) => r.type === 'subagent' && r.event.type === 'tool_call' && r.event.name === 'glob'),
    ).toBe(true);
    // The parent's session log keeps the child's events and the link to the child's own log.
    const parentLog = readFileSync(join(sessionsOf(home), `${records[0].session_id}.jsonl`), 'utf8');
    expect(parentLog).toContain(`"type":"subagent","child":{"id":"${id}"`);
    expect(parentLog).toContain(logOf(home, id));
    expect(parentLog).not.toMatch(/"type":"subagent"[^\n]*"event":\{"type":"text_delta"/);

    const second = await lathe(dir, home, 'go on', (sender, i) => {
      if (sender !== 'parent') return say('still 42');
      return i === 0
        ? call('use_subagent', { description: 'again', prompt: 'which number?', resume: id })
        : say('run two done');
    });
    expect(second.code, second.stderr).toBe(0);
    const resumed = second.of('keep a number');
    expect(resumed).toHaveLength(1);
    const messages = JSON.stringify(resumed[0].body.messages);
    expect(messages).toContain('first answer: 42');
    expect(messages).toContain('which number?');
    const result = second.requests.at(-1)!.toolResults[0];
    expect(result.content).toContain(`${id} (general: again) completed`);
    expect(result.content).toContain('still 42');
  });

  it('a child still running when the first run ends is interrupted, and the second run resumes it', async () => {
    const dir = tempDir();
    const home = tempDir('lathe-home-');
    let id = '';
    const first = await lathe(dir, home, 'start it', (sender, i, req) => {
      if (sender !== 'parent') return { hang: true };
      if (i === 0)
        return call('use_subagent', { description: 'slow', prompt: 'take long', background: true });
      id = childIdIn(req);
      return say('leaving it running');
    });
    expect(first.code, first.stderr).toBe(0);
    const log = readFileSync(logOf(home, id), 'utf8');
    expect(log).toContain('"status":"interrupted"');

    const second = await lathe(dir, home, 'go on', (sender, i) => {
      if (sender !== 'parent') return say('finished now');
      return i === 0
        ? call('use_subagent', { description: 'slow', prompt: 'finish it', resume: id })
        : say('done');
    });
    expect(second.code, second.stderr).toBe(0);
    const [resumed] = second.of('take long');
    expect(JSON.stringify(resumed.body.messages)).toContain('finish it');
    expect(second.requests.at(-1)!.toolResults[0].content).toContain(`${id} (general: slow) completed`);
  });
});

/** The sessions folder of the one project in a fresh home. */
function sessionsOf(home: string): string {
  const [project] = readdirSync(join(home, 'sessions'));
  return join(home, 'sessions', project);
}

/** The child's log under the documents root. */
function logOf(home: string, id: string): string {
  return join(sessionsOf(home), 'agents', `${id}.jsonl`);
}
