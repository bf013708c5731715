import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { wrapCommand } from '../../../src/permission/sandbox/bubblewrap.js';
import { systemSockets } from '../../../src/permission/sandbox/host_sockets.js';
import { needs } from '../../support/required_programs.js';
import { runProcess, runSandboxed, sandboxFor, sharedDir, USERS, writeShared } from './users.js';

/** A Unix socket server in the host's /tmp, as a tmux server or an ssh-agent keeps one. */
let socketDir: string;
let socketPath: string;
let server: Server;

beforeAll(async () => {
  socketDir = sharedDir('lathe-sbx-socket-', '/tmp');
  socketPath = join(socketDir, 'agent.sock');
  server = createServer((socket) => socket.end('hello from outside\n'));
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  chmodSync(socketPath, 0o777);
});

afterAll(() => {
  server.close();
  rmSync(socketDir, { recursive: true, force: true });
});

const connect = (path: string) => [
  '/usr/bin/python3',
  '-c',
  `import socket; s = socket.socket(socket.AF_UNIX); s.connect(${JSON.stringify(path)}); print(s.recv(100).decode().strip())`,
];

needs('bwrap').each(USERS)('private temp folders, as $name', (user) => {
  it.skipIf(user.unavailable)('a socket server in the host /tmp cannot be seen or reached', async () => {
    // The same client, run bare as this user, does reach it: only the sandbox stands between.
    expect((await runProcess([...user.asUser, ...connect(socketPath)])).stdout).toMatch(/hello from outside/);
    const sandbox = sandboxFor(user, { workspace: sharedDir('lathe-sbx-ws-', '/var/tmp') });
    const r = await runSandboxed(
      sandbox,
      `ls -A /tmp; test -e ${socketPath} && echo visible; ${connect(socketPath)
        .map((a) => `'${a}'`)
        .join(' ')}`,
    );
    expect(r.stdout).not.toMatch(/visible|hello from outside/);
    expect(r.stdout).not.toContain('lathe-sbx-socket-');
  });

  it.skipIf(user.unavailable)('TMPDIR names the private /tmp, which the host never sees', async () => {
    const sandbox = sandboxFor(user, { workspace: sharedDir('lathe-sbx-ws-') });
    const r = await runSandboxed(sandbox, 'echo "$TMPDIR"; f=$(mktemp) && echo private > "$f" && echo "$f"');
    const [tmpdirInside, made] = r.stdout.trim().split('\n');
    expect(tmpdirInside).toBe('/tmp');
    expect(made).toMatch(/^\/tmp\//);
    expect(existsSync(made)).toBe(false);
  });

  for (const mode of ['workspace-write', 'read-only'] as const) {
    it.skipIf(user.unavailable)(`a workspace under /tmp works (${mode})`, async () => {
      const workspace = sharedDir('lathe-sbx-ws-', '/tmp');
      writeShared(workspace, { 'src/a.txt': 'in the workspace\n' });
      const sandbox = sandboxFor(user, { workspace, mode });
      const r = await runSandboxed(sandbox, 'pwd && cat a.txt && echo written > b.txt', {
        cwd: join(workspace, 'src'),
      });
      expect(r.stdout).toBe(`${join(workspace, 'src')}\nin the workspace\n`);
      if (mode === 'workspace-write') {
        expect(r.code).toBe(0);
        expect(readFileSync(join(workspace, 'src', 'b.txt'), 'utf8')).toBe('written\n');
      } else {
        expect(r.stderr).toMatch(/Read-only file system/);
        expect(existsSync(join(workspace, 'src', 'b.txt'))).toBe(false);
      }
    });
  }

  it.skipIf(user.unavailable)(
    'a service socket found under /run is bound over with an empty node',
    async () => {
      // A stand-in for /run outside the temp folders, with a socket two levels down.
      const run = sharedDir('lathe-sbx-run-', existsSync('/var/lib') ? '/var/lib' : undefined);
      const path = join(run, 'docker', 'docker.sock');
      mkdirSync(join(run, 'docker'), { mode: 0o777 });
      const service = createServer((socket) => socket.end('service\n'));
      await new Promise<void>((resolve) => service.listen(path, resolve));
      chmodSync(path, 0o777);
      try {
        expect(systemSockets(run)).toEqual([path]);
        expect((await runProcess([...user.asUser, ...connect(path)])).stdout).toBe('service\n');
        const policy = {
          mode: 'workspace-write' as const,
          network: false,
          workspace: sharedDir('lathe-sbx-ws-'),
          documentsRoot: sharedDir('lathe-home-'),
          bwrapPath: user.bwrapPath,
        };
        const wrapped = wrapCommand(policy, connect(path), policy.workspace, { sockets: systemSockets(run) });
        const r = await runProcess(wrapped.argv);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(/ConnectionRefused|Connection refused/);
      } finally {
        service.close();
        rmSync(run, { recursive: true, force: true });
      }
    },
  );
});
