import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { LATHE_BIN } from '../support/cli.js';
import { testNeeds } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';

vi.setConfig({ testTimeout: 120_000 });

const NOBODY_UID = 65534;

/** The command lines of the Chromium processes `uid` runs now. */
function chromiumOf(uid: number): string[][] {
  const found: string[][] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (statSync(`/proc/${pid}`).uid !== uid) continue;
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (argv[0]?.includes('chrom')) found.push(argv);
    } catch {
      // The process ended while it was read.
    }
  }
  return found;
}

const held: ServerResponse[] = [];
const server = createServer((_, response) => held.push(response));
afterAll(() => {
  for (const response of held) response.end();
  server.close();
});

// Only root can start lathe as another user.
(process.getuid?.() === 0 ? testNeeds('chromium') : it.skip)(
  "keeps Chromium's own sandbox for its pages when lathe runs as a user other than root",
  async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const arrived = new Promise<void>((resolve) => server.once('request', () => resolve()));
    const home = tempDir('lathe-home-');
    const dir = tempDir('lathe-ws-');
    for (const folder of [home, dir]) chmodSync(folder, 0o777);
    mkdirSync(join(home, 'settings'), { recursive: true, mode: 0o777 });
    writeFileSync(join(home, 'settings', 'settings.json'), JSON.stringify({ web: { allow: ['127.0.0.1'] } }));
    chmodSync(join(home, 'settings', 'settings.json'), 0o644);
    const input = JSON.stringify({ action: 'navigate', url: `http://127.0.0.1:${port}/` });
    const run = spawn(
      'setpriv',
      [
        '--reuid=nobody',
        '--regid=nogroup',
        '--clear-groups',
        '--',
        process.execPath,
        LATHE_BIN,
        'tool',
        'browser_action',
        '--yolo',
        '--cwd',
        dir,
        '--input',
        input,
      ],
      { env: { ...process.env, LATHE_HOME: home, HOME: home, LATHE_FEATURES: '' }, stdio: 'ignore' },
    );
    const ended = new Promise<number | null>((resolve) => run.on('exit', resolve));
    // The page's request is held open: Chromium is up and loading it now.
    await Promise.race([
      arrived,
      ended.then((code) => Promise.reject(new Error(`lathe exited ${code} first`))),
    ]);
    const processes = chromiumOf(NOBODY_UID);
    for (const response of held.splice(0)) response.end('<title>held</title><p>done</p>');
    expect(await ended).toBe(0);
    expect(processes.length).toBeGreaterThan(0);
    expect(processes.filter((argv) => argv.includes('--no-sandbox'))).toEqual([]);
  },
);
