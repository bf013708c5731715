import * as fs from 'node:fs/promises';
import { join } from 'node:path';
import type { PeerInfo } from '../tool/context/peers.js';
import { pidExists } from '../util/process_identity.js';

/**
 * `$LATHE_HOME/run/`: one inbox per lathe process with feature `peers` on, `<pid>.sock` (the
 * Unix socket, mode 0600) and `<pid>.json` (who it is). The folder is 0700: only this user's
 * processes reach the sockets.
 */
export function runDir(documentsRoot: string): string {
  return join(documentsRoot, 'run');
}

export const socketPath = (dir: string, pid: number) => join(dir, `${pid}.sock`);
export const infoPath = (dir: string, pid: number) => join(dir, `${pid}.json`);

/** The longest socket path Linux takes (sun_path holds 108 bytes with the terminating NUL). */
const MAX_SOCKET_PATH = 107;

/** Why a socket cannot be made at `path`, or undefined. */
export function socketPathProblem(path: string): string | undefined {
  const bytes = Buffer.byteLength(path);
  if (bytes <= MAX_SOCKET_PATH) return undefined;
  return `the peer inbox ${path} is ${bytes} bytes long, more than a Unix socket path may be (${MAX_SOCKET_PATH}); set LATHE_HOME to a shorter folder`;
}

/** Makes the run folder (0700, also when it was there with other bits). */
export async function prepareRunDir(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  await fs.chmod(dir, 0o700);
}

/** Removes a process's inbox files. */
export async function removeInbox(dir: string, pid: number): Promise<void> {
  await Promise.all([
    fs.rm(socketPath(dir, pid), { force: true }),
    fs.rm(infoPath(dir, pid), { force: true }),
  ]);
}

async function readInfo(dir: string, pid: number): Promise<PeerInfo | undefined> {
  try {
    const info = JSON.parse(await fs.readFile(infoPath(dir, pid), 'utf8')) as PeerInfo;
    return info.pid === pid && typeof info.name === 'string' ? info : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The inboxes of live processes other than `self`. An inbox whose process is gone (its pid is
 * dead) is removed on the way, so a crashed lathe's socket does not linger.
 */
export async function liveInboxes(dir: string, self: number): Promise<PeerInfo[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const pids = new Set(
    names.flatMap((name) => {
      const match = /^(\d+)\.(sock|json)$/.exec(name);
      return match ? [Number(match[1])] : [];
    }),
  );
  pids.delete(self);
  const found = await Promise.all(
    [...pids].map(async (pid) => {
      if (!pidExists(pid)) {
        await removeInbox(dir, pid);
        return undefined;
      }
      return readInfo(dir, pid);
    }),
  );
  return found.filter((info): info is PeerInfo => info !== undefined).sort((a, b) => a.pid - b.pid);
}
