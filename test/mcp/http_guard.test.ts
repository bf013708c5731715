import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopChild } from '../support/mcp_servers/peers.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { INITIALIZE, rawPost, type ServedCommand, serveCommand } from './served_http.js';

const ALLOWED_ORIGIN = 'http://app.localhost:5173';

describe('lathe mcp serve --http: who may call it (Host and Origin)', () => {
  let served: ServedCommand;
  let port: string;
  const post = (headers: Record<string, string>) =>
    rawPost(
      served.url,
      {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      INITIALIZE,
    );
  const authorised = () => ({ authorization: `Bearer ${served.token}` });

  beforeAll(async () => {
    const home = tempDir('lathe-home-');
    mkdirSync(join(home, 'settings'), { recursive: true });
    writeFileSync(
      join(home, 'settings', 'settings.json'),
      JSON.stringify({ mcp: { allowedOrigins: [ALLOWED_ORIGIN] } }),
    );
    served = await serveCommand(tempDir(), { LATHE_HOME: home });
    port = new URL(served.url).port;
  });
  afterAll(() => stopChild(served.child));

  it('refuses a Host that is not the listening address with 403, before the token, and logs one line', async () => {
    const rebound = await post({ ...authorised(), host: `evil.example:${port}` });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).error.message).toBe(
      `Forbidden: refused a request for Host "evil.example:${port}": lathe listens at 127.0.0.1:${port} and localhost:${port}`,
    );
    const stderr = await served.stderrHolding('evil.example');
    expect(stderr.split('\n').filter((line) => line.includes('evil.example'))).toEqual([
      `lathe: refused a request for Host "evil.example:${port}": lathe listens at 127.0.0.1:${port} and localhost:${port}`,
    ]);
    // Without the token too: the Host is judged first, so nothing says whether a token would do.
    expect((await post({ host: `rebind.example:${port}` })).status).toBe(403);
    // The right name with another port is another address.
    expect((await post({ ...authorised(), host: `127.0.0.1:${Number(port) + 1}` })).status).toBe(403);
    expect((await post({ ...authorised(), host: '127.0.0.1' })).status).toBe(403);
    await served.stderrHolding('rebind.example');
  });

  it('serves the listening address by either name', async () => {
    expect((await post({ ...authorised(), host: `127.0.0.1:${port}` })).status).toBe(200);
    expect((await post({ ...authorised(), host: `LOCALHOST:${port}` })).status).toBe(200);
  });

  it('refuses an Origin that settings do not allow, serves one they do, its own and a request with none', async () => {
    const host = `127.0.0.1:${port}`;
    const page = await post({ ...authorised(), host, origin: 'http://evil.example' });
    expect(page.status).toBe(403);
    expect(JSON.parse(page.body).error.message).toBe(
      'Forbidden: refused a request from Origin "http://evil.example": not in settings mcp.allowedOrigins',
    );
    expect(await served.stderrHolding('Origin "http://evil.example"')).toContain(
      'lathe: refused a request from Origin "http://evil.example": not in settings mcp.allowedOrigins\n',
    );
    // The listening address's own origin is served (it is no rebinding page); another port is not.
    expect((await post({ ...authorised(), host, origin: `http://127.0.0.1:${port}` })).status).toBe(200);
    expect((await post({ ...authorised(), host, origin: `http://localhost:${port}` })).status).toBe(200);
    expect((await post({ ...authorised(), host, origin: `http://127.0.0.1:${port + 1}` })).status).toBe(403);
    expect((await post({ ...authorised(), host, origin: `https://127.0.0.1:${port}` })).status).toBe(403);
    expect((await post({ ...authorised(), host, origin: 'null' })).status).toBe(403);
    expect((await post({ ...authorised(), host, origin: ALLOWED_ORIGIN })).status).toBe(200);
    expect((await post({ ...authorised(), host })).status).toBe(200);
  });
});
