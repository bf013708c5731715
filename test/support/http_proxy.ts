import { createServer, request, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';

/**
 * A small forward HTTP proxy on 127.0.0.1 for tests: absolute-URI requests (`GET http://…`) are
 * forwarded, CONNECT opens a tunnel. It records what passed through, so a test can tell that
 * traffic took the proxy.
 */
export class HttpProxy {
  /** `METHOD url` of each forwarded request, or `CONNECT host:port` of each tunnel. */
  readonly seen: string[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<HttpProxy> {
    let proxy: HttpProxy | undefined;
    const server = createServer((req, res) => {
      proxy?.seen.push(`${req.method} ${req.url}`);
      let target: URL;
      try {
        target = new URL(req.url ?? '');
      } catch {
        res.writeHead(400).end('absolute URI expected');
        return;
      }
      const upstream = request(
        target,
        { method: req.method, headers: { ...req.headers, host: target.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.writeHead(502).end('upstream failed'));
      req.pipe(upstream);
    });
    server.on('connect', (req, client: Socket, head: Buffer) => {
      proxy?.seen.push(`CONNECT ${req.url}`);
      const [host, port] = (req.url ?? '').split(':');
      const upstream = connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    server.on('connection', (socket: Socket) => {
      proxy?.sockets.add(socket);
      socket.once('close', () => proxy?.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.address() as AddressInfo;
    proxy = new HttpProxy(server, `http://127.0.0.1:${port}`);
    return proxy;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
