import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/agent.js';
import type { AgentEvent } from '../../src/agent/events.js';
import type { SettingsLayer } from '../../src/config/types.js';
import { capabilitiesFor } from '../../src/provider/capabilities.js';
import { createModel } from '../../src/provider/create_model.js';
import { createRuntime, type Runtime } from '../../src/runtime/create_runtime.js';
import { FakeModelServer, type ScriptedTurn } from '../support/fake_model_server.js';
import { scriptedServerSettings } from '../support/lsp/scripted_server.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

const TS_FIXTURE = fileURLToPath(new URL('../fixtures/lsp/ts/', import.meta.url));

let server: FakeModelServer | undefined;
let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.dispose();
  await server?.close();
  runtime = undefined;
  server = undefined;
});

/** An agent on a runtime over `workspace`, its events heard by `events`. */
async function agentOver(workspace: string, settings: SettingsLayer, turns: ScriptedTurn[]) {
  runtime = createRuntime({
    cwd: workspace,
    documentsRoot: tempDir('lathe-home-'),
    features: ['lsp'],
    yolo: true,
    env: {},
    settings,
  });
  server = await FakeModelServer.start({ turns });
  const events: AgentEvent[] = [];
  const waiters: Array<() => void> = [];
  const spec = { provider: 'anthropic' as const, modelId: 'claude-sonnet-4-5' };
  const agent = new Agent({
    runtime,
    model: await createModel(spec, { apiKey: 'k', baseUrl: server.baseUrl('anthropic') }),
    modelName: 'anthropic/claude-sonnet-4-5',
    capabilities: capabilitiesFor(spec),
    user: { ask: async () => ({ answer: '', present: false }), confirm: async () => ({ approved: false }) },
    onEvent: (event) => {
      events.push(event);
      for (const wake of waiters.splice(0)) wake();
    },
  });
  /** Resolves once an event the test looks for has come. */
  const heard = async (wanted: (e: AgentEvent) => boolean): Promise<void> => {
    while (!events.some(wanted)) await new Promise<void>((wake) => waiters.push(wake));
  };
  return { agent, events, heard };
}

/** The progress messages of the calls of one tool, in order, each before that call's result. */
function progressOf(events: AgentEvent[], tool: string): string[] {
  const messages: string[] = [];
  for (const event of events) {
    if (event.type === 'tool_progress' && event.name === tool) messages.push(event.message);
    if (event.type === 'tool_result' && event.name === tool) break;
  }
  return messages;
}

const resultOf = (events: AgentEvent[], tool: string) =>
  events.find(
    (e): e is Extract<AgentEvent, { type: 'tool_result' }> => e.type === 'tool_result' && e.name === tool,
  )?.result;

describe('a call waiting on a language server', () => {
  it('says the server is starting while it starts, then what it asks of it', async () => {
    const release = join(tempDir('lathe-release-'), 'go');
    const workspace = writeTree({ 'a.fk': 'class Greeter\n' });
    const { agent, events, heard } = await agentOver(
      workspace,
      { lsp: scriptedServerSettings('--start-after', release) },
      [
        { toolCalls: [{ name: 'lsp', input: { operation: 'hover', path: 'a.fk', line: 1, column: 7 } }] },
        { text: 'Done.' },
      ],
    );
    const run = agent.send('hover it');
    await heard((e) => e.type === 'tool_progress' && e.message === 'starting fake…');
    // The server is held in its handshake: the call is still running.
    expect(resultOf(events, 'lsp')).toBeUndefined();
    writeFileSync(release, '');
    await run;
    expect(resultOf(events, 'lsp')?.text).toContain('hover at 1:7');
    expect(progressOf(events, 'lsp')).toEqual(['starting fake…', 'asking fake for hover information…']);
  }, 60_000);

  it('says it checks diagnostics while an edit waits for them on a warm server', async () => {
    const release = join(tempDir('lathe-release-'), 'go');
    const workspace = writeTree({ 'a.fk': 'class Greeter\n' });
    const settings = {
      lsp: { ...scriptedServerSettings('--publish-after', release), diagnosticsTimeout: { edit: 60 } },
    };
    const { agent, events, heard } = await agentOver(workspace, settings, [
      // Diagnostics of a file once: the server is warm, so an edit waits for its diagnostics.
      { toolCalls: [{ name: 'lsp', input: { operation: 'diagnostics', path: 'a.fk' } }] },
      { toolCalls: [{ name: 'write_to_file', input: { path: 'b.fk', content: 'HOLD ERROR\n' } }] },
      { text: 'Done.' },
    ]);
    const run = agent.send('write it');
    await heard((e) => e.type === 'tool_progress' && e.name === 'write_to_file');
    expect(resultOf(events, 'write_to_file')).toBeUndefined();
    writeFileSync(release, '');
    await run;
    expect(progressOf(events, 'write_to_file')).toEqual(['checking diagnostics…']);
    expect(resultOf(events, 'write_to_file')?.text).toMatch(/\ndiagnostics: 1 error\n {2}b\.fk:1:6 error/);
    expect(progressOf(events, 'lsp')).toEqual(['starting fake…', 'checking diagnostics…']);
  }, 60_000);

  it('names typescript-language-server as it starts and as it is asked for references', async () => {
    const workspace = tempDir('lathe-lsp-progress-');
    cpSync(TS_FIXTURE, workspace, { recursive: true });
    // Diagnostics after edits off: nothing starts the server before the call does.
    const { agent, events } = await agentOver(workspace, { lsp: { diagnosticsAfterEdit: false } }, [
      { toolCalls: [{ name: 'find_references', input: { path: 'src/util.ts', line: 3, column: 17 } }] },
      { text: 'Done.' },
    ]);
    await agent.send('who shouts?');
    expect(resultOf(events, 'find_references')?.text).toContain('src/app.ts');
    expect(progressOf(events, 'find_references')).toEqual([
      'starting typescript-language-server…',
      'asking typescript-language-server for references…',
    ]);
  }, 120_000);
});
