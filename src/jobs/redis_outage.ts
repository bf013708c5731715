/** Errors that say the connection to Redis is gone (or cannot be made), not that a command failed. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

function isConnectionError(error: Error): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return (code !== undefined && CONNECTION_CODES.has(code)) || /Connection is closed/i.test(error.message);
}

/**
 * What a worker says of Redis going away: one line when the outage begins, however many of its
 * connections (the queue's, the worker's, BullMQ's blocking one) report it and however often
 * they retry, and one line when Redis answers again. Another error is one line of its own.
 */
export class RedisOutage {
  private down = false;

  constructor(
    private readonly address: string,
    private readonly write: (line: string) => void = (line) => process.stderr.write(line),
  ) {}

  error(error: Error): void {
    if (this.down) return;
    if (isConnectionError(error)) {
      this.down = true;
      const why = (error as NodeJS.ErrnoException).code ?? error.message;
      this.write(`lathe: lost Redis at ${this.address} (${why}); waiting for it to come back\n`);
      return;
    }
    this.write(`lathe: worker: ${error.message.split('\n')[0]}\n`);
  }

  /** A connection is ready again. */
  ready(): void {
    if (!this.down) return;
    this.down = false;
    this.write(`lathe: Redis at ${this.address} is back\n`);
  }
}
