import * as fs from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { atomicWriteFile } from '../edit/atomic_write.js';
import type { PeerInfo } from '../tool/context/peers.js';
import { infoPath, prepareRunDir, removeInbox, socketPath, socketPathProblem } from './peer_directory.js';
import { type PeerSender, parseRequest, readLine, writeLine } from './peer_protocol.js';

/** A message another lathe sent to this one. */
export interface PeerMessage {
  from: PeerSender;
  text: string;
  receivedAt: Date;
}

/** How long a connected client may take to send its request. */
const REQUEST_TIMEOUT_MS = 5_000;

/**
 * This process's inbox: a Unix socket `<run>/<pid>.sock` (0600) and `<pid>.json` describing it.
 * Each connection carries one request line and gets one reply line; a message is answered once
 * it was handed to `onMessage`.
 */
export class PeerInbox {
  private server?: Server;

  constructor(
    private readonly dir: string,
    private readonly info: PeerInfo,
    private readonly onMessage: (message: PeerMessage) => void,
  ) {}

  /** Starts listening; throws an Error saying why it cannot. */
  async start(): Promise<void> {
    const path = socketPath(this.dir, this.info.pid);
    const problem = socketPathProblem(path);
    if (problem) throw new Error(problem);
    await prepareRunDir(this.dir);
    // A socket left by an earlier process with this pid (a crash, a reused pid) is not ours to keep.
    await fs.rm(path, { force: true });
    const server = createServer((socket) => void this.answer(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    await fs.chmod(path, 0o600);
    await atomicWriteFile(infoPath(this.dir, this.info.pid), `${JSON.stringify(this.info)}\n`, {
      mode: 0o600,
    });
    server.unref();
  }

  private async answer(socket: Socket): Promise<void> {
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => socket.destroy());
    socket.on('error', () => undefined);
    try {
      const request = parseRequest(await readLine(socket));
      if (!request) writeLine(socket, { ok: false, error: 'not a request lathe understands' });
      else if (request.type === 'ping') writeLine(socket, { ok: true });
      else {
        this.onMessage({ from: request.from, text: request.text, receivedAt: new Date() });
        writeLine(socket, { ok: true });
      }
    } catch (error) {
      if (!socket.destroyed) writeLine(socket, { ok: false, error: (error as Error).message });
    }
    socket.end();
  }

  /** Stops listening and removes the inbox's files. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await removeInbox(this.dir, this.info.pid);
  }
}
