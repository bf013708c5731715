import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { type RequestPolicy, refusalWithAddress } from './request_guard.js';

/**
 * The browser's only way out: an HTTP proxy on 127.0.0.1 that judges each host by the address
 * policy and connects to the very address it judged. Left to itself, Chromium resolves a name
 * again when it connects, and a DNS answer changed in between (rebinding) would reach an address
 * the check refused.
 */
export class PinningProxy {
  private constructor(
    private readonly server: Server,
    /** `http://127.0.0.1:<port>`, for the browser's proxy setting. */
    readonly url: string,
  ) {}

  static async start(
    policy: RequestPolicy,
    onRefused: (url: string, reason: string) => void,
  ): Promise<PinningProxy> {
    const sockets = new Set<Duplex>();
    const track = (socket: Duplex) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    };
    const server = createServer((req, res) => void forward(req, res, policy, onRefused));
    // A browser closing or resetting its connections is routine: never an unhandled error.
    server.on('connection', (socket: Duplex) => {
      socket.on('error', () => socket.destroy());
      track(socket);
    });
    server.on('clientError', (_error, socket: Duplex) => socket.destroy());
    const context: Tunnel = { policy, onRefused, track };
    server.on(
      'connect',
      (req: IncomingMessage, client: Duplex, head: Buffer) => void tunnel(req, client, head, context),
    );
    // A WebSocket over plain http asks the proxy for the upgrade itself: tunnelled like CONNECT,
    // with the request passed on.
    server.on(
      'upgrade',
      (req: IncomingMessage, client: Duplex, head: Buffer) => void upgrade(req, client, head, context),
    );
    server.on('close', () => {
      for (const socket of sockets) socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const proxy = new PinningProxy(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.unref();
    return proxy;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.emit('close');
    });
  }
}

/** An `http://` request through the proxy: judged, then sent to the judged address with its own Host header. */
async function forward(
  req: IncomingMessage,
  res: ServerResponse,
  policy: RequestPolicy,
  onRefused: (url: string, reason: string) => void,
): Promise<void> {
  const url = req.url ?? '';
  req.on('error', () => res.destroy());
  res.on('error', () => req.destroy());
  const judged = await refusalWithAddress(url, policy);
  if ('refused' in judged) {
    onRefused(url, judged.refused);
    res.writeHead(403, { 'content-type': 'text/plain' }).end(`refused by lathe: ${judged.refused}\n`);
    return;
  }
  const target = new URL(url);
  const outgoing = request(
    {
      host: judged.address,
      port: target.port || 80,
      method: req.method,
      path: `${target.pathname}${target.search}`,
      headers: req.headers,
      setHost: false,
    },
    (answer) => {
      answer.on('error', () => res.destroy());
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    },
  );
  outgoing.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`lathe could not reach ${target.host}: ${error.message}\n`);
  });
  req.pipe(outgoing);
}

interface Tunnel {
  policy: RequestPolicy;
  onRefused: (url: string, reason: string) => void;
  track: (socket: Duplex) => void;
}

/** `CONNECT host:port` (https, wss): judged, then a byte pipe to the judged address. */
function tunnel(req: IncomingMessage, client: Duplex, head: Buffer, context: Tunnel): Promise<void> {
  return pipeJudged(`https://${req.url ?? ''}`, 443, client, head, context, {
    toClient: 'HTTP/1.1 200 Connection Established\r\n\r\n',
  });
}

/** A WebSocket upgrade over plain http: judged, its request passed on, then a byte pipe. */
function upgrade(req: IncomingMessage, client: Duplex, head: Buffer, context: Tunnel): Promise<void> {
  const url = req.url ?? '';
  return pipeJudged(url, 80, client, head, context, {
    toUpstream: () => {
      const target = new URL(url);
      const lines = [`${req.method} ${target.pathname}${target.search} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      return `${lines.join('\r\n')}\r\n\r\n`;
    },
  });
}

/** Judges `url`, then connects to the judged address and pipes the client's socket to it. */
async function pipeJudged(
  url: string,
  defaultPort: number,
  client: Duplex,
  head: Buffer,
  { policy, onRefused, track }: Tunnel,
  first: { toClient?: string; toUpstream?: () => string },
): Promise<void> {
  const judged = await refusalWithAddress(url, policy);
  if ('refused' in judged) {
    onRefused(url, judged.refused);
    client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    return;
  }
  const upstream = connect(Number(new URL(url).port || defaultPort), judged.address);
  track(upstream);
  client.once('close', () => upstream.destroy());
  upstream.once('connect', () => {
    if (first.toClient) client.write(first.toClient);
    if (first.toUpstream) upstream.write(first.toUpstream());
    if (head.length > 0) upstream.write(head);
    pipeBoth(client, upstream);
  });
  upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
}

function pipeBoth(client: Duplex, upstream: Socket): void {
  client.pipe(upstream);
  upstream.pipe(client);
  const end = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', end);
  upstream.on('error', end);
  client.on('close', end);
  upstream.on('close', end);
}
