import type { SdkMessage, SdkResultMessage } from '../../src/sdk/messages.js';
import type { QueryOptions } from '../../src/sdk/options.js';
import { FakeModelServer, type ScriptedTurn } from '../support/fake_model_server.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

const servers: FakeModelServer[] = [];

/** Closes the fake servers `sdkSetup` started (in afterEach). */
export async function closeSdkServers(): Promise<void> {
  await Promise.all(servers.splice(0).map((server) => server.close()));
}

/**
 * A workspace, a lathe home and a fake model server playing `turns`, and the query options that
 * point at them: the model's endpoint, where sessions go, and the lines lathe reports (`lines`).
 */
export async function sdkSetup(turns: ScriptedTurn[], files: Record<string, string> = {}) {
  const server = await FakeModelServer.start({ turns });
  servers.push(server);
  const cwd = writeTree(files, 'lathe-sdk-');
  const lines: string[] = [];
  const options: QueryOptions = {
    cwd,
    documentsRoot: tempDir('lathe-home-'),
    model: 'anthropic/claude-sonnet-4-5',
    baseUrl: server.baseUrl('anthropic'),
    apiKey: 'test-key',
    env: { ...process.env, LATHE_RETRY_BASE_MS: '10' },
    stderr: (line) => lines.push(line),
  };
  const modelRequests = () => server.requests.filter((r) => r.kind === 'model');
  return { server, cwd, options, lines, modelRequests };
}

/** Every message of a query, read to its end. */
export async function readAll(messages: AsyncIterable<SdkMessage>): Promise<SdkMessage[]> {
  const all: SdkMessage[] = [];
  for await (const message of messages) all.push(message);
  return all;
}

export function results(messages: SdkMessage[]): SdkResultMessage[] {
  return messages.filter((m): m is SdkResultMessage => m.type === 'result');
}
