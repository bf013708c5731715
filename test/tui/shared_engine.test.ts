import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { runtimePlaces } from '../../src/runtime/create_runtime.js';
import type { SdkInitMessage } from '../../src/sdk/messages.js';
import { query } from '../../src/sdk/query.js';
import { findSession } from '../../src/session/catalog.js';
import { closeSdkServers, readAll, sdkSetup } from '../sdk/support.js';
import type { ScriptedTurn } from '../support/fake_model_server.js';
import { type AppUnderTest, renderApp } from './support/app_harness.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  await closeSdkServers();
});

/** What the conversation engine writes to a session log for each prompt, in order. */
const ENGINE_RECORDS = new Set([
  'user_message',
  'request_start',
  'tool_call',
  'tool_start',
  'approval_request',
  'approval_answer',
  'tool_result',
  'assistant_text',
  'model_message',
  'done',
]);

function engineRecords(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((record) => ENGINE_RECORDS.has(record.type as string));
}

const turns = (): ScriptedTurn[] => [
  { toolCalls: [{ name: 'execute_command', input: { command: 'touch one' } }] },
  { text: 'Touched.' },
];

describe('the interactive UI and query()', () => {
  it('run on one engine: the same conversation is recorded alike, each approval with who answered it', async () => {
    app = await renderApp(turns());
    await app.submit('touch');
    // The first command of a process waits for the sandbox probe: slow on a busy machine.
    await app.waitFor('Run `touch one`?', 30_000);
    app.write('1');
    await app.waitFor('Touched.', 30_000);
    const fromUi = engineRecords(app.session.logPath!);

    const { options } = await sdkSetup(turns());
    const messages = await readAll(
      query({ prompt: 'touch', options: { ...options, canUseTool: () => ({ behavior: 'allow' }) } }),
    );
    const { session_id } = messages[0] as SdkInitMessage;
    const { documentsRoot, workspace } = runtimePlaces(options);
    const fromQuery = engineRecords(findSession(documentsRoot, workspace, session_id)!.path);

    expect(fromUi.map((record) => record.type)).toEqual(fromQuery.map((record) => record.type));
    const answers = (records: Array<Record<string, unknown>>) =>
      records.filter((record) => record.type === 'approval_answer');
    expect(answers(fromUi)).toMatchObject([{ tool: 'execute_command', answer: 'allow', by: 'user' }]);
    expect(answers(fromQuery)).toMatchObject([
      { tool: 'execute_command', answer: 'allow', by: 'canUseTool' },
    ]);
    // query() yields what its engine recorded.
    const recorded = answers(fromQuery).map(({ seq, time, ...record }) => record);
    expect(messages.filter((m) => m.type === 'approval_answer')).toEqual(recorded);
  });
});
