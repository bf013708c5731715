import { type AddressInfo, connect, createServer, type Server } from 'node:net';

/** A port nothing listens on: bound, then released. */
export function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Forwards every connection to `target` from the first port of `ports` that is free, on
 * 127.0.0.1: a server reachable on a port of the test's choosing.
 */
export async function forwardFrom(
  ports: readonly number[],
  target: number,
): Promise<{ port: number; close(): Promise<void> }> {
  for (const port of ports) {
    const server: Server = createServer((socket) => {
      const upstream = connect(target, '127.0.0.1');
      socket.pipe(upstream).pipe(socket);
      const end = () => {
        socket.destroy();
        upstream.destroy();
      };
      socket.on('error', end);
      upstream.on('error', end);
    });
    const bound = await new Promise<boolean>((done) => {
      server.once('error', () => done(false));
      server.listen(port, '127.0.0.1', () => done(true));
    });
    if (bound) return { port, close: () => new Promise((done) => server.close(() => done())) };
  }
  throw new Error(`none of the ports ${ports.join(', ')} is free`);
}
