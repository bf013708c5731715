import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Mode } from '../../../src/config/types.js';
import { createRuntime } from '../../../src/runtime/create_runtime.js';
import { needs } from '../../support/required_programs.js';
import { tempDir } from '../../support/runtime_fixtures.js';
import { runSandboxed, sandboxFor, sharedDir, USERS } from './users.js';

let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((socket) => socket.end('hello\n'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(() => {
  server.close();
});

needs('bwrap')('Plan mode', () => {
  it('an approved command in Plan mode runs in the read-only sandbox; in Act mode it writes', async () => {
    const workspace = tempDir('lathe-sbx-ws-');
    const rt = createRuntime({
      cwd: workspace,
      documentsRoot: tempDir('lathe-home-'),
      env: {},
      askUser: async () => ({ approved: true }),
    });
    rt.setMode('plan');
    const planned = await rt.runTool('execute_command', { command: 'echo x > plan.txt' });
    expect(planned.isError).toBe(true);
    expect(planned.text).toMatch(/Read-only file system/);
    expect(existsSync(join(workspace, 'plan.txt'))).toBe(false);
    rt.setMode('act');
    expect((await rt.runTool('execute_command', { command: 'echo x > act.txt' })).isError).toBe(false);
    expect(readFileSync(join(workspace, 'act.txt'), 'utf8')).toBe('x\n');
    await rt.dispose();
  });
});

needs('bwrap').each(USERS)('modes, as $name', (user) => {
  it.skipIf(user.unavailable)(
    'Plan mode makes the sandbox read-only, whatever the configured mode',
    async () => {
      for (const mode of ['workspace-write', 'off'] as const) {
        const workspace = sharedDir('lathe-sbx-ws-');
        let agentMode: Mode = 'plan';
        const sandbox = sandboxFor(user, { workspace, mode }, () => agentMode);
        const r = await runSandboxed(sandbox, 'echo x > made.txt');
        expect(r.stderr, mode).toMatch(/Read-only file system/);
        expect(existsSync(join(workspace, 'made.txt'))).toBe(false);
        agentMode = 'act';
        if (mode === 'off') expect(await sandbox.wrap(['true'], workspace)).toBeUndefined();
        else expect((await runSandboxed(sandbox, 'echo x > made.txt')).code).toBe(0);
        // The call's own mode wins over the runtime's.
        expect((await runSandboxed(sandbox, 'echo y > other.txt', { agentMode: 'plan' })).code).not.toBe(0);
      }
    },
  );

  it.skipIf(user.unavailable)(
    'without network allowed, nothing can be reached; with it, the host can',
    async () => {
      const command = `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`;
      const closed = await runSandboxed(sandboxFor(user, { workspace: sharedDir('lathe-sbx-ws-') }), command);
      expect(closed.code).not.toBe(0);
      expect(closed.stdout).not.toMatch(/hello/);
      const open = await runSandboxed(
        sandboxFor(user, { workspace: sharedDir('lathe-sbx-ws-'), network: true }),
        command,
      );
      expect(open.stdout).toBe('hello\n');
    },
  );
});
