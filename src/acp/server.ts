import { Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { type AcpOptions, latheAgent } from './agent.js';
import type { AcpSession } from './session.js';

/**
 * `lathe acp`: the Agent Client Protocol over standard input and output, newline-delimited JSON.
 * Resolves once the editor has gone (its end of the pipe closed) and every session has ended: its
 * turn stopped, its log saved, the processes it started ended.
 */
export async function serveAcp(
  options: AcpOptions,
  io: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream } = {
    input: process.stdin,
    output: process.stdout,
  },
): Promise<void> {
  const sessions = new Map<string, AcpSession>();
  const stream = ndJsonStream(
    Writable.toWeb(io.output as Writable) as WritableStream<Uint8Array>,
    Readable.toWeb(io.input as Readable) as ReadableStream<Uint8Array>,
  );
  const connection = latheAgent(options, sessions).connect(stream);
  await connection.closed.catch(() => undefined);
  await Promise.all([...sessions.values()].map((session) => session.close()));
}
