import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { latheAsync } from '../support/cli.js';
import { FakeModelServer } from '../support/fake_model_server.js';
import { tempDir } from '../support/runtime_fixtures.js';

// Naming Node's global Headers, Request, Response or FormData loads undici, Node's whole HTTP
// client (about 50 ms of CPU before the first model request). A headless run's model requests go
// out on Node's own client; these check that nothing on the way names those globals.

/** A module run before lathe that says on stderr when one of those globals is read. */
function tattler(): string {
  const path = join(tempDir('lathe-tattler-'), 'tattle.mjs');
  writeFileSync(
    path,
    `for (const name of ['Headers', 'Request', 'Response', 'FormData']) {
  const own = Object.getOwnPropertyDescriptor(globalThis, name);
  Object.defineProperty(globalThis, name, {
    configurable: true,
    get() {
      process.stderr.write('read the global ' + name + '\\n');
      return own.get ? own.get.call(globalThis) : own.value;
    },
  });
}
`,
  );
  return path;
}

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('lathe -p without a proxy', () => {
  it('never loads undici: no global Headers, Request, Response or FormData is read', async () => {
    server = await FakeModelServer.start({
      turns: [{ toolCalls: [{ name: 'list_files', input: {} }] }, { text: 'Listed, and done.' }],
    });
    const r = await latheAsync(['-p', 'list the files', '--model', 'anthropic/claude-sonnet-4-5'], {
      cwd: tempDir('lathe-repo-'),
      env: {
        LATHE_HOME: tempDir('lathe-home-'),
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: 'test-key',
        NODE_OPTIONS: `--import ${tattler()}`,
      },
    });
    expect(r.stdout).toContain('Listed, and done.');
    expect(r.stderr).toBe('');
    expect(server.requests).toHaveLength(2);
  });
});
