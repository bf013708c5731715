import { connect as connectSocket } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpServing, serveHttp } from '../../src/mcp/http_server.js';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { gate, INITIALIZE } from './served_http.js';

/**
 * A client that opens a request and never finishes it: `first` at once, then one more line
 * every 20 ms for as long as the server keeps the connection. Resolves with what the server
 * answered when it cut the connection.
 */
function slowLoris(port: number, first: string, drip: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const socket = connectSocket(port, '127.0.0.1', () => {
      socket.write(first);
      timer = setInterval(() => socket.writable && socket.write(drip), 20);
    });
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('close', () => {
      clearInterval(timer);
      resolve(answer);
    });
    socket.on('error', (error) => {
      clearInterval(timer);
      if (['ECONNRESET', 'EPIPE'].includes((error as NodeJS.ErrnoException).code ?? '')) resolve(answer);
      else reject(error);
    });
  });
}

describe('lathe mcp serve --http: slow clients', () => {
  const slow = gate();
  let serving: HttpServing;
  let port: number;
  let host: string;
  beforeAll(async () => {
    const runtime = createRuntime({
      cwd: tempDir(),
      documentsRoot: tempDir('lathe-home-'),
      env: { NODE_ENV: 'test' },
      externalTools: [slow.tool],
    });
    serving = await serveHttp(runtime, { port: 0, version: 'test', requestTimeoutMs: 500 });
    port = Number(new URL(serving.url).port);
    host = `127.0.0.1:${port}`;
  });
  afterAll(() => serving.close());

  it('cuts off a client that sends its headers slowly, and one that sends its body slowly (408)', async () => {
    const headers = await slowLoris(port, `POST /mcp HTTP/1.1\r\nHost: ${host}\r\n`, 'X-Slow: a\r\n');
    expect(headers).toMatch(/^HTTP\/1\.1 408 /);
    const body = await slowLoris(
      port,
      `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${serving.token}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{',
      ' ',
    );
    expect(body).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('keeps a GET event stream and a streamed answer open past the bound', async () => {
    const auth = { authorization: `Bearer ${serving.token}` };
    const base = {
      ...auth,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const init = await fetch(serving.url, {
      method: 'POST',
      headers: base,
      body: JSON.stringify(INITIALIZE),
    });
    await init.text();
    const session = {
      'mcp-session-id': init.headers.get('mcp-session-id')!,
      'mcp-protocol-version': '2025-06-18',
    };
    const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
    await fetch(serving.url, {
      method: 'POST',
      headers: { ...base, ...session },
      body: JSON.stringify(initialized),
    });
    const stream = await fetch(serving.url, {
      headers: { ...auth, ...session, accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(200);
    let streamEnded = false;
    const reader = stream.body!.getReader();
    const drained = (async () => {
      while (!(await reader.read().catch(() => ({ done: true }))).done);
      streamEnded = true;
    })();

    const client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(serving.url), { requestInit: { headers: auth } }),
    );
    const call = client.callTool({ name: 'wait_for_gate', arguments: {} });
    await slow.running;
    // A slow client cut off after both streams opened: the bound has passed for them too.
    expect(await slowLoris(port, `GET /mcp HTTP/1.1\r\nHost: ${host}\r\n`, 'X-Slow: a\r\n')).toMatch(/ 408 /);
    slow.open();
    const result = (await call) as { content: Array<{ text: string }> };
    expect(result.content[0].text).toBe('through');
    expect(streamEnded).toBe(false);
    await client.close();
    await reader.cancel();
    await drained;
  });
});
