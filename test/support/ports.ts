import { readFileSync } from 'node:fs';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';

/** A free port of 127.0.0.1 that nothing listens on: bound, then released. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The test certificate for 127.0.0.1 and localhost (test/fixtures/tls), its path and key. */
export const TEST_CERT_PATH = new URL('../fixtures/tls/cert.pem', import.meta.url).pathname;
export const testTls = () => ({
  cert: readFileSync(TEST_CERT_PATH),
  key: readFileSync(new URL('../fixtures/tls/key.pem', import.meta.url)),
});

/**
 * Forwards every connection to the port `target` from the first port of `ports` that is free
 * (0: any), on 127.0.0.1: a server reachable on a port of the test's choosing, or over TLS with
 * the test certificate in front of a plain one.
 */
export async function forwardFrom(
  ports: readonly number[],
  target: number,
  options: { tls?: boolean } = {},
): Promise<{ port: number; close(): Promise<void> }> {
  const pipe = (socket: Socket) => {
    const upstream = connect(target, '127.0.0.1');
    socket.pipe(upstream).pipe(socket);
    const end = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on('error', end);
    upstream.on('error', end);
  };
  for (const port of ports) {
    const server: Server = options.tls ? createTlsServer(testTls(), pipe) : createServer(pipe);
    const bound = await new Promise<boolean>((done) => {
      server.once('error', () => done(false));
      server.listen(port, '127.0.0.1', () => done(true));
    });
    if (bound)
      return {
        port: (server.address() as AddressInfo).port,
        close: () => new Promise((done) => server.close(() => done())),
      };
  }
  throw new Error(`none of the ports ${ports.join(', ')} is free`);
}
