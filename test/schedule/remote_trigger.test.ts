import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NO_FACTS } from '../../src/tool/facts.js';
import { findTool } from '../../src/tool/pool.js';
import { builtinTools } from '../../src/tools/index.js';
import { FakeModelServer } from '../support/fake_model_server.js';
import { testNeeds } from '../support/required_programs.js';
import { disposeAll, eventually, processesWith, runtimeWith, uniqueMarker } from '../tasks/helpers.js';

let model: FakeModelServer | undefined;
afterEach(async () => {
  await disposeAll();
  await model?.close();
  model = undefined;
});

/** A runtime whose trigger endpoint takes any free port. */
function triggersRuntime(env: NodeJS.ProcessEnv = {}) {
  return runtimeWith(['remote_triggers'], { env: { LATHE_TRIGGER_PORT: '0', ...env } });
}

async function createTrigger(rt: ReturnType<typeof triggersRuntime>, input: Record<string, unknown> = {}) {
  const r = await rt.runTool('remote_trigger', { action: 'create', ...input });
  expect(r.isError).toBe(false);
  return r.data as { id: string; url: string; token: string };
}

function post(url: string, options: { token?: string; body?: string; method?: string } = {}) {
  return fetch(url, {
    method: options.method ?? 'POST',
    headers: {
      ...(options.token !== undefined ? { authorization: `Bearer ${options.token}` } : {}),
      'content-type': 'application/json',
    },
    body: options.method === 'GET' ? undefined : (options.body ?? JSON.stringify({ prompt: 'hello' })),
  });
}

describe('remote_trigger', () => {
  it('is offered with the remote_triggers feature; list is read-only, the other actions are not', () => {
    expect(runtimeWith([]).pool.map((t) => t.name)).not.toContain('remote_trigger');
    expect(triggersRuntime().pool.map((t) => t.name)).toContain('remote_trigger');
    const tool = findTool(builtinTools(), 'remote_trigger')!;
    expect(['list', 'create', 'revoke'].map((action) => tool.isReadOnly({ action }, NO_FACTS))).toEqual([
      true,
      false,
      false,
    ]);
  });

  testNeeds('bwrap')(
    'creates a trigger with a URL on 127.0.0.1 and a token shown once, stored only hashed',
    async () => {
      const rt = triggersRuntime();
      const created = await rt.runTool('remote_trigger', { action: 'create', name: 'ci' });
      const { id, url, token } = created.data as { id: string; url: string; token: string };
      expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/trigger/${id}$`));
      expect(token.length).toBeGreaterThanOrEqual(40);
      expect(created.text).toMatch(/Token \(shown only now; keep it secret\)/);
      const path = join(rt.documentsRoot, 'schedules', 'triggers.json');
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(readFileSync(path, 'utf8')).not.toContain(token);
      const listed = await rt.runTool('remote_trigger', { action: 'list' });
      expect(listed.text).toMatch(/^Endpoint: listening on http:\/\/127\.0\.0\.1:\d+\n/);
      expect(listed.text).toMatch(new RegExp(`${id} "ci": POST ${url} \\(runs in .*, never fired\\)`));
      expect(listed.text).not.toContain(token);
    },
  );

  testNeeds('bwrap')(
    'refuses requests without the right token, to a revoked trigger, or of the wrong shape',
    async () => {
      const rt = triggersRuntime();
      const { id, url, token } = await createTrigger(rt);
      const base = url.replace(/\/trigger\/.*/, '');
      expect((await post(url)).status).toBe(401);
      expect((await post(url, { token: `${token}x` })).status).toBe(401);
      expect((await post(`${base}/trigger/trg_000000000000`, { token })).status).toBe(401);
      expect((await post(url, { token, method: 'GET' })).status).toBe(405);
      expect((await post(`${base}/elsewhere`, { token })).status).toBe(404);
      expect((await post(url, { token, body: 'not json' })).status).toBe(400);
      const noPrompt = await post(url, { token, body: '{}' });
      expect(noPrompt.status).toBe(400);
      expect(await noPrompt.json()).toEqual({
        error: 'no prompt: send {"prompt": "…"} (this trigger has no default)',
      });
      expect((await post(url, { token, body: 'x'.repeat(70_000) })).status).toBe(413);
      expect((await rt.runTool('remote_trigger', { action: 'revoke', id })).text).toBe(
        `Revoked ${id}; its token no longer starts runs.`,
      );
      expect((await post(url, { token })).status).toBe(401);
      expect((await rt.runTool('remote_trigger', { action: 'revoke', id })).isError).toBe(true);
    },
  );

  testNeeds('bwrap')(
    'starts a headless lathe run with the posted prompt, its output in a log file',
    async () => {
      model = await FakeModelServer.start({
        turns: [{ toolCalls: [{ name: 'attempt_completion', input: { result: 'Triggered run done.' } }] }],
      });
      const rt = triggersRuntime({
        LATHE_MODEL: 'anthropic/claude-sonnet-4-5',
        ANTHROPIC_BASE_URL: model.url,
        ANTHROPIC_API_KEY: 'test-key',
        NODE_ENV: 'test',
      });
      const { url, token } = await createTrigger(rt);
      const response = await post(url, { token, body: JSON.stringify({ prompt: 'run the nightly checks' }) });
      expect(response.status).toBe(202);
      const { run, log } = (await response.json()) as { run: string; log: string };
      expect(run).toMatch(/^run_/);
      expect(log.startsWith(join(rt.documentsRoot, 'schedules', 'runs'))).toBe(true);
      const text = await eventually(() => {
        const content = readFileSync(log, 'utf8');
        return /# ended:/.test(content) ? content : undefined;
      }, 25_000);
      expect(text).toMatch(/Triggered run done\./);
      expect(text).toMatch(/# ended: exit code 0/);
      expect(model.requests.find((r) => r.kind === 'model')?.lastUserText).toBe('run the nightly checks');
      expect((await rt.runTool('remote_trigger', { action: 'list' })).text).toMatch(/last fired \d{4}-/);
    },
  );

  testNeeds('bwrap')('uses the prompt stored with the trigger when a request brings none', async () => {
    const rt = triggersRuntime();
    const { url, token } = await createTrigger(rt, { prompt: 'the default prompt' });
    const response = await post(url, { token, body: '' });
    expect(response.status).toBe(202);
    const { log } = (await response.json()) as { log: string };
    expect(readFileSync(log, 'utf8')).toMatch(/# prompt: "the default prompt"/);
  });

  testNeeds('bwrap')('ends a run still going when the runtime is disposed', async () => {
    model = await FakeModelServer.start({ turns: [{ hang: true }] });
    const rt = triggersRuntime({
      LATHE_MODEL: 'anthropic/claude-sonnet-4-5',
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'test-key',
    });
    const { url, token } = await createTrigger(rt);
    const marker = uniqueMarker('trigger-run');
    expect((await post(url, { token, body: JSON.stringify({ prompt: marker }) })).status).toBe(202);
    await eventually(() => processesWith(marker).length > 0);
    await rt.dispose();
    expect(processesWith(marker)).toEqual([]);
  });

  testNeeds('bwrap')('stops listening when the runtime is disposed', async () => {
    const rt = triggersRuntime();
    const { url, token } = await createTrigger(rt);
    await rt.dispose();
    await expect(post(url, { token })).rejects.toThrow();
  });
});
