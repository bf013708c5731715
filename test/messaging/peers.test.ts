import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { infoPath, runDir, socketPath } from '../../src/messaging/peer_directory.js';
import { Peers } from '../../src/messaging/peers.js';
import { tempDir } from '../support/runtime_fixtures.js';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const proc of started.splice(0)) proc.kill('SIGKILL');
});

/**
 * A process listening on its own inbox path under `home` that never answers (`accept`: takes
 * connections and says nothing), with the info file a lathe writes. Resolves once it listens.
 */
async function silentPeer(home: string): Promise<ChildProcess> {
  const dir = runDir(home);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const code = `
    const net = require('node:net');
    const fs = require('node:fs');
    const path = require('node:path');
    const dir = ${JSON.stringify(dir)};
    const server = net.createServer(() => {});
    server.listen(path.join(dir, process.pid + '.sock'), () => {
      fs.writeFileSync(path.join(dir, process.pid + '.json'), JSON.stringify({
        pid: process.pid, name: 'silent-' + process.pid, cwd: '/somewhere', sessionId: 's', startedAt: new Date().toISOString(),
      }));
      process.stdout.write('listening\\n');
    });
  `;
  const proc = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  started.push(proc);
  await new Promise<void>((resolve) => proc.stdout!.once('data', () => resolve()));
  return proc;
}

const peersIn = (home: string, timeoutMs?: number) =>
  new Peers({ documentsRoot: home, workspace: tempDir(), sessionId: 'this-session', timeoutMs });

describe('peers', () => {
  it('removes the inbox of a process that died without closing it', async () => {
    const home = tempDir('lathe-home-');
    const dead = await silentPeer(home);
    const pid = dead.pid!;
    const dir = runDir(home);
    dead.kill('SIGKILL');
    await new Promise((resolve) => dead.once('exit', resolve));
    // The killed process could not remove them: the socket file and its info stay behind.
    expect(existsSync(socketPath(dir, pid))).toBe(true);
    expect(existsSync(infoPath(dir, pid))).toBe(true);

    expect(await peersIn(home).list()).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a peer that does not answer is an error the model can act on, and stays listed', async () => {
    const home = tempDir('lathe-home-');
    const silent = await silentPeer(home);
    const peers = peersIn(home, 300);
    const listed = await peers.list();
    expect(listed.map((p) => p.pid)).toEqual([silent.pid]);
    const source = peers.recipients();
    const [recipient] = await source.list();
    expect(recipient).toMatchObject({ kind: 'peer', id: `peer_${silent.pid}`, name: `silent-${silent.pid}` });
    await expect(source.deliver(recipient, 'hello', 'lead')).rejects.toThrow(
      `peer silent-${silent.pid} (pid ${silent.pid}) did not answer within 0.3 s; the message may not have arrived. It may be busy: try again later, or message another peer.`,
    );
    expect(existsSync(socketPath(runDir(home), silent.pid!))).toBe(true);
  });

  it('listens on a 0600 socket in a 0700 folder, and removes both files on dispose', async () => {
    const home = tempDir('lathe-home-');
    mkdirSync(runDir(home), { mode: 0o755 });
    const peers = peersIn(home);
    const notices: string[] = [];
    peers.listen((event) => {
      if (event.kind === 'notice') notices.push(event.message);
    });
    await peers.ready();
    expect(notices).toEqual([]);
    const dir = runDir(home);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const socket = socketPath(dir, process.pid);
    expect(statSync(socket).isSocket()).toBe(true);
    expect(statSync(socket).mode & 0o777).toBe(0o600);
    expect(statSync(infoPath(dir, process.pid)).mode & 0o777).toBe(0o600);
    await peers.dispose();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('says why there is no inbox when the socket path is too long', async () => {
    const home = join(tempDir('lathe-home-'), 'x'.repeat(120));
    const peers = peersIn(home);
    const notices: string[] = [];
    peers.listen((event) => {
      if (event.kind === 'notice') notices.push(event.message);
    });
    await peers.ready();
    expect(notices).toEqual([
      expect.stringMatching(
        /^peers: no inbox: the peer inbox .* more than a Unix socket path may be \(107\); set LATHE_HOME to a shorter folder$/,
      ),
    ]);
    await peers.dispose();
  });

  it('lists neither itself nor what is not an inbox in the run folder', async () => {
    const home = tempDir('lathe-home-');
    mkdirSync(runDir(home), { recursive: true });
    writeFileSync(join(runDir(home), 'notes.txt'), 'x');
    writeFileSync(infoPath(runDir(home), process.pid), '{}');
    expect(await peersIn(home).list()).toEqual([]);
  });
});
