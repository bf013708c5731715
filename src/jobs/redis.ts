import { Redis } from 'ioredis';
import { JobInputError, QueueUnreachableError } from './errors.js';

/** How long lathe waits for Redis to answer before saying it cannot be reached. */
const CONNECT_TIMEOUT_MS = 3_000;

/** A `redis://` or `rediss://` address, checked; anything else is a JobInputError. */
export function checkRedisUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new JobInputError(`the queue "${url}" is not a URL: use "local" or redis://HOST:PORT/DB`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')
    throw new JobInputError(`the queue "${url}" is not a Redis address: use "local" or redis://HOST:PORT/DB`);
  return url;
}

/** The address without its password, for messages. */
export function shownRedisUrl(url: string): string {
  return url.replace(/\/\/([^@/]*:)?[^@/]*@/, '//');
}

/**
 * A connection to Redis for BullMQ, made only once Redis has answered a PING: an address that
 * cannot be reached fails here, in a few seconds, with one line (ioredis would otherwise retry
 * for ever). After that, the connection retries through outages as BullMQ expects.
 */
export async function connectRedis(url: string): Promise<Redis> {
  checkRedisUrl(url);
  const probe = new Redis(url, {
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  // The connect promise rejects with "Connection is closed"; the socket's own error says why.
  let socketError: NodeJS.ErrnoException | undefined;
  probe.on('error', (error: NodeJS.ErrnoException) => {
    socketError ??= error;
  });
  try {
    await probe.connect();
    await probe.ping();
  } catch (error) {
    probe.disconnect();
    const cause = socketError ?? (error as NodeJS.ErrnoException);
    const why = cause.code ?? cause.message;
    throw new QueueUnreachableError(`cannot reach Redis at ${shownRedisUrl(url)}: ${why}`);
  }
  probe.disconnect();
  const client = new Redis(url, { maxRetriesPerRequest: null });
  client.on('error', () => undefined);
  return client;
}
