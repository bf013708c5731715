import { cpSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/agent.js';
import type { AgentEvent } from '../../src/agent/events.js';
import { capabilitiesFor } from '../../src/provider/capabilities.js';
import { createModel } from '../../src/provider/create_model.js';
import { createRuntime, type Runtime } from '../../src/runtime/create_runtime.js';
import type { AgentInteraction } from '../../src/tool/context/agent.js';
import { PendingNotes } from '../../src/tool/pending_notes.js';
import type { ToolResult } from '../../src/tool/types.js';
import { FakeModelServer, type ScriptedTurn } from '../support/fake_model_server.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/lsp/ts/', import.meta.url));
const BREAK = { old_string: 'return text.toUpperCase();', new_string: 'return text.length;' };
const FIX = { old_string: 'return text.length;', new_string: 'return text.toUpperCase();' };
const TYPE_ERROR =
  "diagnostics: 1 error\n  src/util.ts:4:3 error TS2322: Type 'number' is not assignable to type 'string'.";

let server: FakeModelServer | undefined;
let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.dispose();
  await server?.close();
  runtime = undefined;
  server = undefined;
});

function project(settings: Record<string, unknown> = {}): Runtime {
  const workspace = tempDir('lathe-lsp-pending-');
  cpSync(FIXTURE, workspace, { recursive: true });
  runtime = createRuntime({
    cwd: workspace,
    documentsRoot: tempDir('lathe-home-'),
    yolo: true,
    env: {},
    settings,
  });
  return runtime;
}

async function agentOn(rt: Runtime, turns: ScriptedTurn[], events: AgentEvent[] = []): Promise<Agent> {
  server = await FakeModelServer.start({ turns });
  const spec = { provider: 'anthropic' as const, modelId: 'claude-sonnet-4-5' };
  return new Agent({
    runtime: rt,
    model: await createModel(spec, { apiKey: 'k', baseUrl: server.baseUrl('anthropic') }),
    modelName: 'anthropic/claude-sonnet-4-5',
    capabilities: capabilitiesFor(spec),
    user: { ask: async () => ({ answer: '', present: false }), confirm: async () => ({ approved: false }) },
    onEvent: (event) => events.push(event),
  });
}

/** Calls one tool as an agent's call would run: with a queue for what comes later. */
function callsWith(rt: Runtime, pendingNotes: PendingNotes) {
  const interaction: AgentInteraction = {
    mode: 'act',
    previousMode: 'act',
    ask: async () => ({ answer: '', present: false }),
    confirm: async () => ({ approved: false }),
    emit: () => undefined,
    finish: () => undefined,
    setMode: () => undefined,
    onPromptEnd: () => undefined,
    pendingNotes,
  };
  let id = 0;
  return async (name: string, input: unknown): Promise<ToolResult> => {
    const execution = rt.createExecution({ interaction });
    execution.add({ id: `call_${++id}`, name, input });
    execution.close();
    for await (const { result } of execution.results()) return result;
    throw new Error('no result');
  };
}

describe('diagnostics after an edit while typescript-language-server starts', () => {
  it('say pending in the edit’s result, and join the next model request once in', async () => {
    const rt = project();
    const events: AgentEvent[] = [];
    const agent = await agentOn(
      rt,
      [
        { toolCalls: [{ name: 'read_file', input: { path: 'src/util.ts' } }] },
        { toolCalls: [{ name: 'edit_file', input: { path: 'src/util.ts', ...BREAK } }] },
        { text: 'Done.' },
        { text: 'Seen.' },
      ],
      events,
    );
    await agent.send('break it');
    const edit = events.find(
      (e): e is Extract<AgentEvent, { type: 'tool_result' }> =>
        e.type === 'tool_result' && e.name === 'edit_file',
    );
    expect(edit?.result.text).toMatch(/\ndiagnostics: pending \(/);
    await agent.pendingNotes.settled();
    await agent.send('and now?');
    const requests = server!.requests.filter((r) => r.kind === 'model');
    const note = `Diagnostics of src/util.ts, pending after its edit:\n${TYPE_ERROR}`;
    // The first request after the edit that carries them has them in its newest user message.
    const carrying = requests.slice(2).find((r) => JSON.stringify(r.body).includes('pending after its edit'));
    expect(carrying?.lastUserText).toContain(note);
  }, 120_000);

  it('join the next tool result when they are in before the next request', async () => {
    const rt = project();
    const notes = new PendingNotes();
    const call = callsWith(rt, notes);
    await call('read_file', { path: 'src/util.ts' });
    const edited = await call('edit_file', { path: 'src/util.ts', ...BREAK });
    expect(edited.text).toMatch(/\ndiagnostics: pending \(/);
    await notes.settled();
    const next = await call('read_file', { path: 'src/app.ts' });
    expect(next.text).toMatch(
      new RegExp(
        `\\n\\nDiagnostics of src/util\\.ts, pending after its edit:\\n${escapedForRegExp(TYPE_ERROR)}$`,
      ),
    );
    expect(notes.take()).toBeUndefined();
  }, 120_000);

  it('are in the edit’s own result once the server is warm', async () => {
    // A long bound: the test is about waiting for a warm server, not about its speed here.
    const rt = project({ lsp: { diagnosticsTimeout: { edit: 30 } } });
    const notes = new PendingNotes();
    const call = callsWith(rt, notes);
    await call('read_file', { path: 'src/util.ts' });
    expect((await call('edit_file', { path: 'src/util.ts', ...BREAK })).text).toMatch(/diagnostics: pending/);
    await notes.settled();
    notes.take();
    const fixed = await call('edit_file', { path: 'src/util.ts', ...FIX });
    expect(fixed.text).toMatch(/\ndiagnostics: clean$/);
    const broken = await call('edit_file', { path: 'src/util.ts', ...BREAK });
    expect(broken.text).toMatch(new RegExp(`\\n${escapedForRegExp(TYPE_ERROR)}$`));
  }, 120_000);

  it('say once that a server does not start, and nothing after that', async () => {
    const cli = join(
      dirname(createRequire(import.meta.url).resolve('typescript-language-server/package.json')),
      'lib',
      'cli.mjs',
    );
    const rt = project({ lsp: { servers: { typescript: { args: [cli, '--stdio', '--no-such-option'] } } } });
    const notes = new PendingNotes();
    const call = callsWith(rt, notes);
    await call('read_file', { path: 'src/util.ts' });
    const first = await call('edit_file', { path: 'src/util.ts', ...BREAK });
    await notes.settled();
    const said = `${first.text}\n${notes.take() ?? ''}`;
    expect(said).toMatch(
      /diagnostics: unavailable \(the typescript language server did not start: .*unknown option '--no-such-option'\)/,
    );
    const second = await call('edit_file', { path: 'src/util.ts', ...FIX });
    await notes.settled();
    expect(second.text).not.toContain('diagnostics');
    expect(notes.take()).toBeUndefined();
  }, 120_000);
});

describe('the servers a workspace calls for', () => {
  it('start once the first request is out, with no tool asking for them', async () => {
    const rt = project();
    const agent = await agentOn(rt, [{ text: 'Hello.' }]);
    await agent.send('hi');
    await rt.languageServers.settled();
    const states = Object.fromEntries(rt.languageServers.status().map((s) => [s.name, s.state]));
    expect(states.typescript).toBe(`running in ${rt.workspace}`);
    expect(states.pyright).toBe('not started');
  }, 60_000);

  it('are none in a folder without root markers, and none with diagnostics after edits off', async () => {
    for (const settings of [{}, { lsp: { diagnosticsAfterEdit: false } }]) {
      const workspace = settings.lsp ? tempDir('lathe-lsp-off-') : writeTree({ 'notes.md': '# notes\n' });
      if (settings.lsp) cpSync(FIXTURE, workspace, { recursive: true });
      const rt = createRuntime({ cwd: workspace, documentsRoot: tempDir('lathe-home-'), env: {}, settings });
      runtime = rt;
      const agent = await agentOn(rt, [{ text: 'Hello.' }]);
      await agent.send('hi');
      await rt.languageServers.settled();
      expect(rt.languageServers.status().every((s) => !s.state.startsWith('running'))).toBe(true);
      await rt.dispose();
      await server?.close();
      runtime = undefined;
      server = undefined;
    }
  }, 60_000);
});

function escapedForRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
