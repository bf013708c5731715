import { latheAsync } from './cli.js';
import type { WireJson } from './fake_model/types.js';
import { FakeModelServer, type ScriptedTurn } from './fake_model_server.js';
import { tempDir } from './runtime_fixtures.js';

/** The fake model servers started by `runHeadless`, closed by `closeFakeServers` (in afterEach). */
const started: FakeModelServer[] = [];

export async function closeFakeServers(): Promise<void> {
  await Promise.all(started.splice(0).map((server) => server.close()));
}

/** An environment whose every provider (key and base URL) points at the fake server. */
export function fakeModelEnv(server: FakeModelServer, home: string): Record<string, string> {
  return {
    LATHE_HOME: home,
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: 'test-key',
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: server.baseUrl('openai-chat'),
    GEMINI_API_KEY: 'test-key',
    GOOGLE_GEMINI_BASE_URL: server.url,
    OPENAI_COMPATIBLE_API_KEY: 'test-key',
    LATHE_RETRY_BASE_MS: '10',
    NODE_ENV: 'test',
  };
}

/**
 * `lathe -p "do the task" --output-format json` in `dir` against a fake model server playing
 * `turns` (later `--output-format` flags win); every provider's key and base URL point at the
 * server. `json` is the result object, `requests` the model requests the server saw.
 */
export async function runHeadless(
  dir: string,
  turns: ScriptedTurn[],
  args: string[] = [],
  options: { model?: string; home?: string; env?: Record<string, string> } = {},
) {
  const server = await FakeModelServer.start({ turns });
  started.push(server);
  const home = options.home ?? tempDir('lathe-home-');
  const model = options.model ?? 'anthropic/claude-sonnet-4-5';
  const result = await latheAsync(
    ['-p', 'do the task', '--model', model, '--output-format', 'json', ...args],
    {
      cwd: dir,
      env: { ...fakeModelEnv(server, home), ...options.env },
    },
  );
  // The result object is the last line of json and stream-json output; text output has none.
  const last = result.stdout.trim().split('\n').at(-1);
  const json = last?.startsWith('{') ? JSON.parse(last) : undefined;
  return { ...result, json, home, server, requests: server.requests.filter((r) => r.kind === 'model') };
}

/** The stdout of a `--output-format stream-json` run, one parsed event per line. */
export function streamEvents(stdout: string): Array<Record<string, WireJson>> {
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}
