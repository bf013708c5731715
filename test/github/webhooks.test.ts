import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { signatureProblem, signWebhookBody } from '../../src/github/webhook_signature.js';
import { disposeAll, runtimeWith } from '../tasks/helpers.js';

const SECRET = 'test-webhook-secret-1234';

afterEach(disposeAll);

/** A runtime with the feature on, the receiver on any free port, web access approved. */
function webhooksRuntime(secret: string | null = SECRET) {
  return runtimeWith(['github_webhooks'], {
    approve: ['web'],
    settings: { github: { webhookPort: 0, ...(secret ? { webhookSecret: secret } : {}) } },
  });
}

function post(
  url: string,
  payload: unknown,
  options: { event?: string; signature?: string | null; secret?: string; method?: string } = {},
) {
  const body = JSON.stringify(payload);
  const signature =
    options.signature === null
      ? undefined
      : (options.signature ?? signWebhookBody(options.secret ?? SECRET, body));
  return fetch(url, {
    method: options.method ?? 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': options.event ?? 'pull_request_review',
      'x-github-delivery': 'd-1',
      ...(signature ? { 'x-hub-signature-256': signature } : {}),
    },
    body: options.method === 'GET' ? undefined : body,
  });
}

const review = (repo: string, number: number) => ({
  action: 'submitted',
  repository: { full_name: repo },
  sender: { login: 'alice' },
  pull_request: { number, title: 'Add retries' },
  review: { state: 'changes_requested', body: 'Please rename the helper.' },
});

async function subscribe(rt: ReturnType<typeof webhooksRuntime>, input: Record<string, unknown> = {}) {
  const result = await rt.runTool('subscribe_pr', { repo: 'Acme/Widgets', number: 7, ...input });
  expect(result.isError, result.text).toBe(false);
  return result.data as { id: string; url: string; logPath: string };
}

describe('the webhook signature', () => {
  const body = Buffer.from('{"zen":"Keep it logically awesome."}');
  it('accepts the HMAC-SHA256 of the body with the secret', () => {
    expect(signatureProblem(SECRET, body, signWebhookBody(SECRET, body))).toBeUndefined();
  });
  it('refuses a missing, malformed or wrong signature, saying which', () => {
    expect(signatureProblem(SECRET, body, undefined)).toMatch(/^unsigned/);
    expect(signatureProblem(SECRET, body, 'sha1=abc')).toMatch(/^malformed/);
    expect(signatureProblem(SECRET, body, signWebhookBody('another-secret', body))).toMatch(/^bad signature/);
    expect(signatureProblem(SECRET, Buffer.from('{}'), signWebhookBody(SECRET, body))).toMatch(
      /^bad signature/,
    );
  });
});

describe('subscribe_pr', () => {
  it('is offered only with the github_webhooks feature, and asks as web access', async () => {
    expect(runtimeWith([]).pool.map((t) => t.name)).not.toContain('subscribe_pr');
    const asking = runtimeWith(['github_webhooks'], {
      settings: { github: { webhookPort: 0, webhookSecret: SECRET } },
    });
    expect(asking.pool.map((t) => t.name)).toContain('subscribe_pr');
    const refused = await asking.runTool('subscribe_pr', { repo: 'acme/widgets', number: 7 });
    expect(refused.permissionDenial?.category).toBe('web');
  });

  it('refuses to listen without a secret to verify deliveries with', async () => {
    const result = await webhooksRuntime(null).runTool('subscribe_pr', { repo: 'acme/widgets', number: 7 });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Not subscribed: no webhook secret is configured/);
    expect(result.text).toContain('LATHE_GITHUB_WEBHOOK_SECRET');
  });

  it('refuses a repo that is not owner/name', async () => {
    const result = await webhooksRuntime().runTool('subscribe_pr', { repo: 'widgets', number: 7 });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/repo must be owner\/name/);
  });

  it('refuses unsigned and wrongly signed deliveries with 401, logging and reporting each', async () => {
    const rt = webhooksRuntime();
    const lines: string[] = [];
    rt.onWebhookNotice((line) => lines.push(line));
    const { url, logPath } = await subscribe(rt);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/github$/);
    expect(logPath).toBe(join(rt.sessionDir, 'github-webhooks.jsonl'));
    const unsigned = await post(url, review('acme/widgets', 7), { signature: null });
    expect(unsigned.status).toBe(401);
    const wrong = await post(url, review('acme/widgets', 7), { secret: 'not-the-secret' });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: string }).error).toMatch(/^bad signature/);
    const log = readFileSync(logPath, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(log.map((e) => [e.status, e.refused.split(' ')[0], e.event, e.delivery])).toEqual([
      [401, 'unsigned', 'pull_request_review', 'd-1'],
      [401, 'bad', 'pull_request_review', 'd-1'],
    ]);
    expect(lines).toEqual([
      expect.stringMatching(/^GitHub webhook refused \(401\): unsigned/),
      expect.stringMatching(/^GitHub webhook refused \(401\): bad signature/),
    ]);
  });

  it('delivers a signed event of the pull request followed, and only that one', async () => {
    const rt = webhooksRuntime();
    const lines: string[] = [];
    rt.onWebhookNotice((line) => lines.push(line));
    const { url } = await subscribe(rt);
    const other = await post(url, review('acme/widgets', 8));
    expect(other.status).toBe(202);
    expect(await other.json()).toEqual({ delivered: 0, reason: 'no subscription matches' });
    const otherRepo = await post(url, review('acme/gadgets', 7));
    expect(await otherRepo.json()).toMatchObject({ delivered: 0 });
    const matching = await post(url, review('acme/widgets', 7));
    expect(await matching.json()).toEqual({ delivered: 1 });
    expect(lines).toEqual(['GitHub webhook: acme/widgets#7: review submitted by alice: changes_requested']);
    const again = await rt.runTool('subscribe_pr', { repo: 'acme/widgets', number: 7 });
    expect(again.data).toMatchObject({ delivered: 1 });
  });

  it('delivers only the events asked for; comments on plain issues are not about the PR', async () => {
    const rt = webhooksRuntime();
    const { url } = await subscribe(rt, { events: ['issue_comment', 'check_run'] });
    expect(await (await post(url, review('acme/widgets', 7))).json()).toMatchObject({ delivered: 0 });
    const comment = (pull: boolean) => ({
      action: 'created',
      repository: { full_name: 'acme/widgets' },
      issue: { number: 7, ...(pull ? { pull_request: { url: 'x' } } : {}) },
      comment: { body: 'LGTM' },
      sender: { login: 'bob' },
    });
    expect(await (await post(url, comment(false), { event: 'issue_comment' })).json()).toMatchObject({
      delivered: 0,
    });
    expect(await (await post(url, comment(true), { event: 'issue_comment' })).json()).toEqual({
      delivered: 1,
    });
    const check = {
      action: 'completed',
      repository: { full_name: 'acme/widgets' },
      check_run: { name: 'ci', status: 'completed', conclusion: 'failure', pull_requests: [{ number: 7 }] },
    };
    expect(await (await post(url, check, { event: 'check_run' })).json()).toEqual({ delivered: 1 });
  });

  it('answers a ping, refuses other paths and methods, and stops listening with the runtime', async () => {
    const rt = webhooksRuntime();
    const { url } = await subscribe(rt);
    expect((await post(url, { zen: 'hi' }, { event: 'ping' })).status).toBe(200);
    expect((await post(url.replace(/\/github$/, '/elsewhere'), {})).status).toBe(404);
    expect((await post(url, {}, { method: 'GET' })).status).toBe(405);
    await rt.dispose();
    await expect(post(url, review('acme/widgets', 7))).rejects.toThrow();
  });
});
