import { getEventListeners } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { fetchWithTimeouts } from '../../src/provider/timed_fetch.js';
import { freePort } from '../support/ports.js';

const TIMEOUTS = { firstByteMs: 5_000, idleMs: 5_000 };

describe('model requests with timeouts: the caller signal keeps no listener of an ended request', () => {
  it('after 30 answered requests, each body read to its end', async () => {
    const server = createServer((_req, res) => res.end('event: x\ndata: {}\n\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const fetch = fetchWithTimeouts(TIMEOUTS, globalThis.fetch);
    const controller = new AbortController();
    try {
      for (let i = 0; i < 30; i++) await (await fetch(url, { signal: controller.signal })).text();
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    } finally {
      server.close();
    }
  });

  it('after 30 requests that found no server', async () => {
    const url = `http://127.0.0.1:${await freePort()}/`;
    const fetch = fetchWithTimeouts(TIMEOUTS, globalThis.fetch);
    const controller = new AbortController();
    for (let i = 0; i < 30; i++) await expect(fetch(url, { signal: controller.signal })).rejects.toThrow();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
