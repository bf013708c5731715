import * as fs from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { SessionLog } from '../../src/session/log.js';
import { latheAsync } from '../support/cli.js';
import { FakeModelServer } from '../support/fake_model_server.js';
import { tempDir } from '../support/runtime_fixtures.js';

// A session log past V8's longest string (about 512 MB) resumes: it is read from its end, back to
// its latest compaction, never whole. The log is written here in a second or two and removed after.

const MODEL = 'anthropic/claude-sonnet-4-5';
const PADDING_RECORDS = 600;
let server: FakeModelServer | undefined;
let dirs: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

const line = (record: Record<string, unknown>) => `${JSON.stringify(record)}\n`;
const message = (role: string, text: string) => ({
  type: 'model_message',
  message: { role, content: [{ type: 'text', text }] },
});

it('a 600 MB session log resumes from its latest compaction', async () => {
  const workspace = tempDir('lathe-repo-');
  const home = tempDir('lathe-home-');
  dirs = [workspace, home];
  const log = SessionLog.create({
    documentsRoot: home,
    workspace,
    id: 'big',
    meta: { model: MODEL, profile: 'standard', mode: 'act' },
  });
  log.append(message('user', 'an early question, summarised since'));
  log.close();

  // Records of about 1 MB, the most the log writes per event, as a long run of tool output would leave.
  const padding = Buffer.from(
    line({
      type: 'tool_result',
      id: 'pad',
      name: 'execute_command',
      result: { isError: false, text: 'x'.repeat(1_000_000 - 200) },
    }),
  );
  const fd = fs.openSync(log.path, 'a');
  for (let i = 0; i < PADDING_RECORDS; i++) fs.writeSync(fd, padding);
  fs.closeSync(fd);
  const more = SessionLog.open(log.path);
  more.append({
    type: 'compacted_messages',
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'SUMMARY OF EARLIER WORK' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Understood.' }] },
    ],
  });
  more.append(message('user', 'the latest question'));
  more.append(message('assistant', 'the latest answer'));
  more.close();
  expect(fs.statSync(log.path).size).toBeGreaterThan(PADDING_RECORDS * 999_000);

  server = await FakeModelServer.start({ turns: [{ text: 'Resumed.' }] });
  const resumed = await latheAsync(['-p', 'go on', '--resume', 'big'], {
    cwd: workspace,
    env: { LATHE_HOME: home, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'k', NODE_ENV: 'test' },
  });
  expect(resumed).toMatchObject({ code: 0, stdout: 'Resumed.\n', stderr: '' });
  const [request] = server.requests.filter((q) => q.kind === 'model');
  const texts = (request.body.messages as Array<{ role: string; content: Array<{ text?: string }> }>).map(
    (m) => `${m.role}: ${m.content.map((part) => part.text ?? '').join('')}`,
  );
  expect(texts).toEqual([
    'user: SUMMARY OF EARLIER WORK',
    'assistant: Understood.',
    'user: the latest question',
    'assistant: the latest answer',
    'user: go on',
  ]);
  // The run went on in the same log, after what was there.
  const end = Buffer.alloc(64 * 1024);
  const read = fs.openSync(log.path, 'r');
  fs.readSync(read, end, 0, end.length, fs.fstatSync(read).size - end.length);
  fs.closeSync(read);
  const lastLines = end.toString('utf8').split('\n').slice(1, -1);
  expect(lastLines.map((text) => JSON.parse(text).type)).toContain('session_resumed');
  expect(JSON.parse(lastLines.at(-1)!)).toMatchObject({ type: 'session_end', reason: 'final_text' });
}, 120_000);
