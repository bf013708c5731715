import type { Socket } from 'node:net';

/**
 * What peers say over their Unix sockets: one JSON object per line each way. A client sends a
 * request and reads one reply; the connection then ends.
 */
export type PeerRequest = { type: 'ping' } | { type: 'message'; from: PeerSender; text: string };

export type PeerReply = { ok: true } | { ok: false; error: string };

/** Who sent a message, as the receiving side shows it. */
export interface PeerSender {
  pid: number;
  name: string;
  cwd: string;
  sessionId: string;
}

/** Longest line either side reads: a message is text for a model, not a file transfer. */
export const MAX_LINE_BYTES = 256 * 1024;

/** Reads the first line of a socket (without its newline); rejects on a line too long or an early end. */
export function readLine(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (error?: Error, line?: string) => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('error', onError);
      if (error) reject(error);
      else resolve(line ?? '');
    };
    const onData = (chunk: Buffer) => {
      const newline = chunk.indexOf(0x0a);
      const part = newline >= 0 ? chunk.subarray(0, newline) : chunk;
      chunks.push(part);
      size += part.length;
      if (size > MAX_LINE_BYTES) done(new Error(`a line longer than ${MAX_LINE_BYTES} bytes`));
      else if (newline >= 0) done(undefined, Buffer.concat(chunks).toString('utf8'));
    };
    const onEnd = () => done(new Error('the connection ended before a whole line'));
    const onError = (error: Error) => done(error);
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('error', onError);
  });
}

export function writeLine(socket: Socket, value: PeerRequest | PeerReply): void {
  socket.write(`${JSON.stringify(value)}\n`);
}

/** A request read off the wire, or undefined when it is not one. */
export function parseRequest(line: string): PeerRequest | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const request = value as Partial<PeerRequest> | null;
  if (request?.type === 'ping') return { type: 'ping' };
  if (request?.type !== 'message' || typeof request.text !== 'string') return undefined;
  const from = request.from as Partial<PeerSender> | undefined;
  if (typeof from?.pid !== 'number' || typeof from.name !== 'string') return undefined;
  return {
    type: 'message',
    text: request.text,
    from: {
      pid: from.pid,
      name: from.name,
      cwd: String(from.cwd ?? ''),
      sessionId: String(from.sessionId ?? ''),
    },
  };
}
