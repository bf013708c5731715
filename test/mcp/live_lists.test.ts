import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { attachMcp } from '../../src/mcp/attach.js';
import type { McpHub } from '../../src/mcp/hub.js';
import { createRuntime, type RuntimeOptions } from '../../src/runtime/create_runtime.js';
import { LIVELY_SERVER } from '../support/mcp_servers/peers.js';
import { tempDir } from '../support/runtime_fixtures.js';

const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((h) => h.close()));
});

/** A runtime whose workspace names the lively server, MCP attached and connected. */
async function session(server: Record<string, unknown> = {}, options: RuntimeOptions = {}) {
  const workspace = tempDir('lathe-ws-');
  mkdirSync(join(workspace, '.agents', 'mcp'), { recursive: true });
  const cancelFile = join(tempDir(), 'cancelled');
  writeFileSync(
    join(workspace, '.agents', 'mcp', 'lively.json'),
    JSON.stringify({
      mcpServers: {
        lively: { command: process.execPath, args: [LIVELY_SERVER, '--cancel-file', cancelFile], ...server },
      },
    }),
  );
  const runtime = createRuntime({
    cwd: workspace,
    documentsRoot: tempDir('lathe-home-'),
    env: { NODE_ENV: 'test' },
    trust: true,
    approve: ['mcp'],
    ...options,
  });
  let changes = 0;
  let wake = () => {};
  const hub = await attachMcp(runtime, { report: () => {}, env: {} });
  if (!hub) throw new Error('no MCP hub');
  hubs.push(hub);
  await hub.connectAll();
  // The pool is rebuilt on every change; a test waits for the next one.
  const original = runtime.setExternalTools.bind(runtime);
  runtime.setExternalTools = (...args) => {
    original(...args);
    changes++;
    wake();
  };
  const nextChange = (seen = changes) =>
    new Promise<void>((resolve) => {
      if (changes > seen) resolve();
      else wake = resolve;
    });
  return { runtime, hub, cancelFile, nextChange, changes: () => changes };
}

const names = (pool: readonly { name: string }[]) => pool.map((t) => t.name);

/** Waits until `check` holds, re-checking after each pool change (no fixed delay). */
async function until(check: () => boolean, next: () => Promise<void>): Promise<void> {
  while (!check()) await next();
}

describe('a server whose lists change while the session runs', () => {
  it('adds a tool to the pool and refuses one it removed, in one line', async () => {
    const { runtime, nextChange } = await session();
    expect(names(runtime.pool)).not.toContain('lively__late');
    expect((await runtime.runTool('lively__add_tool', {})).text).toBe('added');
    await until(
      () => names(runtime.pool).includes('lively__late'),
      () => nextChange(),
    );
    expect(await runtime.runTool('lively__late', {})).toMatchObject({ isError: false, text: 'late says hi' });

    await runtime.runTool('lively__remove_tool', {});
    await until(
      () => !names(runtime.pool).includes('lively__late'),
      () => nextChange(),
    );
    const refused = await runtime.runTool('lively__late', {});
    expect(refused.isError).toBe(true);
    expect(refused.text).toBe(
      'MCP server "lively" no longer offers tool "late" (it changed its tool list); use the tools it offers now.',
    );
  });

  it('follows the prompt and resource lists too', async () => {
    const { runtime, hub, nextChange } = await session();
    expect(hub.prompts().map((p) => p.prompt.name)).toEqual(['greet']);
    expect(hub.prompts()[0].prompt.arguments).toEqual([
      { name: 'name', required: true },
      { name: 'mood', required: false },
    ]);
    expect(hub.resources().map((r) => r.resource.uri)).toEqual(['lively://notes']);
    await runtime.runTool('lively__add_prompt_and_resource', {});
    await until(
      () => hub.prompts().length === 2 && hub.resources().length === 2,
      () => nextChange(),
    );
    expect(hub.prompts().map((p) => p.prompt.name)).toEqual(['greet', 'later']);
    expect(hub.resources().map((r) => r.resource.uri)).toEqual(['lively://notes', 'lively://later']);
  });

  it('gets a prompt with its arguments filled in', async () => {
    const { hub } = await session();
    const got = await hub.getPrompt(
      'lively',
      'greet',
      { name: 'Ada', mood: 'warmly' },
      new AbortController().signal,
    );
    expect(got).toEqual({
      messages: [{ role: 'user', content: { type: 'text', text: 'Say hello to Ada, warmly.' } }],
    });
    const missing = await hub.getPrompt('lively', 'nope', {}, new AbortController().signal);
    expect(missing).toMatchObject({
      error: expect.stringMatching(/^MCP server "lively" refused prompt nope: /),
    });
  });
});

describe('progress, cancellation and logging', () => {
  it('shows progress on the running call and tells the server when the call is interrupted', async () => {
    const { runtime, cancelFile } = await session();
    const controller = new AbortController();
    const seen: Array<{ id: string; message: string }> = [];
    const execution = runtime.createExecution({
      signal: controller.signal,
      onProgress: (call, message) => {
        seen.push({ id: call.id, message });
        // The user interrupts once the server is three steps in.
        if (seen.length === 3) controller.abort();
      },
    });
    execution.add({ id: 'call_1', name: 'lively__slow', input: {} });
    execution.close();
    const results = [];
    for await (const item of execution.results()) results.push(item);
    expect(seen).toEqual([
      { id: 'call_1', message: '1/3 step 1' },
      { id: 'call_1', message: '2/3 step 2' },
      { id: 'call_1', message: '3/3 step 3' },
    ]);
    expect(results[0].result.isError).toBe(true);
    // The server saw notifications/cancelled for the call's request.
    // The server's process creates the file, then writes it: wait for what it writes.
    await until(
      () => existsSync(cancelFile) && readFileSync(cancelFile, 'utf8').trim() !== '',
      () => new Promise((resolve) => setImmediate(resolve)),
    );
    expect(readFileSync(cancelFile, 'utf8').trim()).toMatch(/^\d+$/);
  });

  it('keeps the messages a server logs, from the level its entry asks for', async () => {
    const all = await session();
    await all.runtime.runTool('lively__log', {});
    const server = () => all.hub.servers()[0];
    await until(
      () => (server().log ?? []).length === 4,
      () => new Promise((resolve) => setImmediate(resolve)),
    );
    expect(server().log?.map((l) => `${l.level} ${l.text}`)).toEqual([
      'debug a debug message',
      'info a info message',
      'warning a warning message',
      'error a error message',
    ]);

    const warnings = await session({ logLevel: 'warning' });
    await warnings.runtime.runTool('lively__log', {});
    const logged = () => warnings.hub.servers()[0].log ?? [];
    await until(
      () => logged().length === 2,
      () => new Promise((resolve) => setImmediate(resolve)),
    );
    expect(logged().map((l) => l.level)).toEqual(['warning', 'error']);
  });
});
