import { createConnection } from 'node:net';
import { type PeerReply, type PeerRequest, readLine, writeLine } from './peer_protocol.js';

/** How a request to a peer's socket went wrong. */
export class PeerUnreachable extends Error {
  constructor(
    message: string,
    /** The socket is gone or refuses: its process no longer listens. */
    readonly gone: boolean,
  ) {
    super(message);
  }
}

/**
 * Sends one request to the socket at `path` and reads the reply, within `timeoutMs` in all
 * (connect, write, reply); a peer that does not answer in time is a `PeerUnreachable`.
 */
export function requestPeer(path: string, request: PeerRequest, timeoutMs: number): Promise<PeerReply> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new PeerUnreachable(`did not answer within ${timeoutMs / 1000} s`, false));
    }, timeoutMs);
    const fail = (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      socket.destroy();
      const gone = error.code === 'ENOENT' || error.code === 'ECONNREFUSED';
      reject(
        new PeerUnreachable(
          gone ? 'is no longer listening' : `could not be reached (${error.message})`,
          gone,
        ),
      );
    };
    socket.once('error', fail);
    socket.once('connect', () => {
      socket.off('error', fail);
      writeLine(socket, request);
      readLine(socket).then(
        (line) => {
          clearTimeout(timer);
          socket.end();
          try {
            resolve(JSON.parse(line) as PeerReply);
          } catch {
            reject(new PeerUnreachable('answered with something that is not a reply', false));
          }
        },
        (error: NodeJS.ErrnoException) => fail(error),
      );
    });
  });
}
