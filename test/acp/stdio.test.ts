import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../support/processes.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { cleanUp, fakeServer, rawLines, startAgent } from './stdio_support.js';

afterEach(cleanUp);

describe('lathe acp over a real stdio pipe', () => {
  it('answers a malformed line and an unknown method with JSON-RPC errors, and stays up', async () => {
    const server = await fakeServer([]);
    const { child } = startAgent(server, tempDir('lathe-home-'));
    const lines = rawLines(child);
    const send = (message: Record<string, unknown>) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    send({ id: 1, method: 'initialize', params: { protocolVersion: 1 } });
    child.stdin.write('this is not json\n');
    send({ id: 2, method: 'no/such_method', params: {} });
    send({ id: 3, method: 'session/list', params: {} });
    await eventually(() => lines.length >= 4);
    expect(lines.find((l) => l.id === 1)).toMatchObject({ result: { protocolVersion: 1 } });
    expect(lines.find((l) => l.id === null)).toMatchObject({ error: { code: -32700 } });
    expect(lines.find((l) => l.id === 2)).toMatchObject({ error: { code: -32601 } });
    expect(lines.find((l) => l.id === 3)).toMatchObject({ result: { sessions: [] } });
  });
});
