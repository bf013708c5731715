import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeModelServer, type ScriptedTurn } from '../support/fake_model_server.js';
import { fakeModelEnv } from '../support/headless_run.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLES = join(ROOT, 'examples');
/** tsx runs an example as it is written; `lathe` resolves to the built package (`npm test` builds first). */
const TSX = import.meta.resolve('tsx');

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Runs examples/NAME.ts in a workspace of `files`, its model the fake server playing `turns`. */
async function runExample(name: string, turns: ScriptedTurn[], files: Record<string, string> = {}) {
  server = await FakeModelServer.start({ turns });
  const { stdout, stderr } = await run(process.execPath, ['--import', TSX, join(EXAMPLES, `${name}.ts`)], {
    cwd: writeTree(files, 'lathe-example-'),
    env: { ...process.env, ...fakeModelEnv(server, tempDir('lathe-home-')) },
  });
  return { stdout, stderr, requests: server.requests.filter((r) => r.kind === 'model') };
}

// Each example is a Node process loading the whole package: slow on a busy machine (test/slow_tests.ts).
describe('the examples of docs/sdk.md', { timeout: 120_000 }, () => {
  it('compile against the package’s types', async () => {
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const compiled = await run(process.execPath, [tsc, '-p', join(EXAMPLES, 'tsconfig.json')]).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout, failed: true }),
    );
    expect(compiled.stdout).toBe('');
    expect(readdirSync(EXAMPLES).filter((f) => f.endsWith('.ts')).length).toBeGreaterThanOrEqual(4);
  });

  it('ask.ts prints the answer as it streams and how the run ended', async () => {
    const { stdout } = await runExample('ask', [{ text: 'There is one file, README.md.' }], {
      'README.md': '# demo\n',
    });
    expect(stdout).toContain('There is one file, README.md.');
    expect(stdout).toContain('success after 1 requests, 20 tokens out');
  });

  it('conversation.ts asks its second question after the first answer, in one session', async () => {
    const { stdout, requests } = await runExample('conversation', [
      { text: 'It is named demo.' },
      { text: 'Version 1.0.0.' },
    ]);
    expect(stdout).toMatch(/^> It is named demo\.\n> Version 1\.0\.0\.\nsession \d{8}-\d{6}-[0-9a-f]{6}\n$/);
    expect(JSON.stringify(requests[1].body.messages)).toContain('It is named demo.');
  });

  it('approvals.ts refuses the edit and shows the command instead of running it', async () => {
    const { stdout, requests } = await runExample(
      'approvals',
      [
        { toolCalls: [{ name: 'read_file', input: { path: 'README.md' } }] },
        {
          toolCalls: [
            { name: 'edit_file', input: { path: 'README.md', old_string: 'teh', new_string: 'the' } },
          ],
        },
        { toolCalls: [{ name: 'execute_command', input: { command: 'npm publish' } }] },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'Reviewed; nothing changed.' } }] },
      ],
      { 'README.md': 'teh project\n' },
    );
    expect(stdout).toContain('refused edit_file');
    expect(stdout).toContain('not running npm publish');
    expect(requests[2].toolResults[0].content).toContain('this program only reviews');
    expect(requests[3].toolResults[0].content).toContain('would run: npm publish');
    expect(stdout).toContain('Reviewed; nothing changed.\n1 call(s) refused');
  });

  it('custom_tools.ts calls its own tool and its in-process MCP server’s', async () => {
    const { stdout } = await runExample('custom_tools', [
      {
        toolCalls: [
          { name: 'lookup_order', input: { id: '42' } },
          { name: 'weather__forecast', input: { city: 'Lyon' } },
        ],
      },
      { text: 'Order 42 shipped on Monday; Lyon will be sunny.' },
    ]);
    expect(stdout).toContain('lookup_order: order 42: shipped on Monday');
    expect(stdout).toContain('weather__forecast: Lyon: sunny, 21 °C');
    expect(stdout).toContain('Order 42 shipped on Monday; Lyon will be sunny.');
  });
});
