import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lazyBuiltin } from './lazy_builtin.js';

export type EndpointState =
  | { listening: true; port: number }
  | { listening: false; port: number; reason: string };

export interface LocalEndpointOptions {
  /** The port on 127.0.0.1; 0: any free one. */
  port: number;
  /** What to say when the port is taken: who may hold it, and how to pick another. */
  inUse: string;
  respond(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/**
 * An HTTP endpoint on 127.0.0.1, listening from the first `start` until `stop`. A port that
 * cannot be had is a state to report, not an error; the endpoint alone never keeps lathe from
 * exiting, and slow clients are cut off after 10 s.
 */
export class LocalEndpoint {
  private server?: Server;
  private starting?: Promise<EndpointState>;

  constructor(private readonly options: LocalEndpointOptions) {}

  start(): Promise<EndpointState> {
    this.starting ??= this.listen();
    return this.starting;
  }

  async stop(): Promise<void> {
    await this.starting;
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private listen(): Promise<EndpointState> {
    const { port, inUse } = this.options;
    const { createServer } = lazyBuiltin('node:http');
    const server = createServer((req, res) => void this.options.respond(req, res));
    server.requestTimeout = 10_000;
    server.headersTimeout = 10_000;
    return new Promise((resolve) => {
      server.once('error', (error: NodeJS.ErrnoException) => {
        const reason = error.code === 'EADDRINUSE' ? `port ${port} is in use (${inUse})` : error.message;
        resolve({ listening: false, port, reason });
      });
      server.listen(port, '127.0.0.1', () => {
        this.server = server;
        server.unref();
        resolve({ listening: true, port: (server.address() as AddressInfo).port });
      });
    });
  }
}
