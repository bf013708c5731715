import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { latheAsync } from '../support/cli.js';
import { closeFakeServers, runHeadless } from '../support/headless_run.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

const SECRET = 'e2e-webhook-secret-5678';

afterEach(closeFakeServers);

/** A documents-root whose global settings hold `settings`. */
function homeWith(settings: object): string {
  const home = tempDir('lathe-home-');
  mkdirSync(join(home, 'settings'));
  writeFileSync(join(home, 'settings', 'settings.json'), JSON.stringify(settings));
  return home;
}

function findFile(dir: string, name: string): string | undefined {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const found = findFile(path, name);
      if (found) return found;
    } else if (entry.name === name) return path;
  }
  return undefined;
}

/** Posts four deliveries to the URL it is given: unsigned, forged, another PR's, and one of #7. */
const POSTER = `import { createHmac } from 'node:crypto';
const url = process.argv[2];
const review = (number) => ({
  action: 'submitted',
  repository: { full_name: 'acme/widgets' },
  sender: { login: 'alice' },
  pull_request: { number },
  review: { state: 'changes_requested', body: 'Please rename the helper.' },
});
async function send(label, payload, secret) {
  const body = JSON.stringify(payload);
  const headers = { 'content-type': 'application/json', 'x-github-event': 'pull_request_review', 'x-github-delivery': label };
  if (secret) headers['x-hub-signature-256'] = 'sha256=' + createHmac('sha256', secret).update(body).digest('hex');
  const response = await fetch(url, { method: 'POST', headers, body });
  console.log(label, response.status);
}
await send('unsigned', review(7));
await send('forged', review(7), 'not-the-secret');
await send('other-pr', review(8), '${SECRET}');
await send('ours', review(7), '${SECRET}');
`;

describe('subscribe_pr through lathe tool', () => {
  const run = (args: string[], home: string, env: Record<string, string> = {}) =>
    latheAsync(
      ['tool', 'subscribe_pr', '--input', JSON.stringify({ repo: 'acme/widgets', number: 7 }), ...args],
      {
        cwd: tempDir(),
        env: { LATHE_HOME: home, LATHE_FEATURES: '', NODE_ENV: 'test', ...env },
      },
    );

  it('refuses without a secret, saying where to set one', async () => {
    const r = await run(
      ['--feature', 'github_webhooks', '--approve', 'web'],
      homeWith({ github: { webhookPort: 0 } }),
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^Not subscribed: no webhook secret is configured/);
  });

  it('subscribes with the secret from the environment, giving the receiver URL', async () => {
    const r = await run(
      ['--feature', 'github_webhooks', '--approve', 'web'],
      homeWith({ github: { webhookPort: 0 } }),
      {
        LATHE_GITHUB_WEBHOOK_SECRET: SECRET,
      },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^Following acme\/widgets#7 \(prs_[0-9a-f]{8}\): pull_request, pull_request_review/,
    );
    expect(r.stdout).toMatch(/No agent runs this call, so deliveries are only logged\./);
    expect(r.stdout).toMatch(/Webhook URL: http:\/\/127\.0\.0\.1:\d+\/github /);
  });
});

describe('subscribe_pr in a lathe -p run', () => {
  it('hands the model the signed delivery of its PR; the unsigned and forged ones are refused and logged', async () => {
    const dir = writeTree({ 'post.mjs': POSTER });
    const home = homeWith({ sandbox: { mode: 'off' }, github: { webhookPort: 0, webhookSecret: SECRET } });
    const run = await runHeadless(
      dir,
      [
        { toolCalls: [{ name: 'subscribe_pr', input: { repo: 'acme/widgets', number: 7 } }] },
        {
          respond: (req) => {
            const url = /Webhook URL: (\S+)/.exec(req.toolResults[0]?.content ?? '')?.[1];
            return url
              ? { toolCalls: [{ name: 'execute_command', input: { command: `node post.mjs ${url}` } }] }
              : { text: `no URL in: ${req.toolResults[0]?.content}` };
          },
        },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'Noted the review.' } }] },
      ],
      ['--feature', 'github_webhooks', '--yolo'],
      { home },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.requests).toHaveLength(3);
    expect(run.requests[2].toolResults[0].content).toMatch(
      /unsigned 401\nforged 401\nother-pr 202\nours 202/,
    );
    // The one delivery that matched came to the model as a message before its next request.
    expect(run.requests[2].lastUserText).toBe(
      'GitHub webhook for acme/widgets#7 (pull_request_review, delivery ours): review submitted by alice: changes_requested\n' +
        '> Please rename the helper.\n' +
        '(The quoted text was written on GitHub by whoever commented, not by the user of this session.)',
    );
    expect(run.stderr).toMatch(
      /lathe: GitHub webhook refused \(401\): unsigned .*\[event pull_request_review, delivery unsigned\]/,
    );
    expect(run.stderr).toMatch(/lathe: GitHub webhook refused \(401\): bad signature .*delivery forged\]/);
    const log = findFile(join(home, 'sessions'), 'github-webhooks.jsonl');
    expect(log).toBeDefined();
    const entries = readFileSync(log!, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(entries.map((e) => [e.delivery, e.status, e.refused !== undefined])).toEqual([
      ['unsigned', 401, true],
      ['forged', 401, true],
      ['other-pr', 202, false],
      ['ours', 202, false],
    ]);
  });
});
