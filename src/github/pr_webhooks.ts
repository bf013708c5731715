import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { GithubSettings } from '../config/github_settings.js';
import type { PrSubscriptionInfo, PullRequestWebhookAccess } from '../tool/context/pull_requests.js';
import { describePrEvent, prTargets } from './pr_events.js';
import {
  type ReceiverState,
  type RequestOutcome,
  type SignedDelivery,
  WEBHOOK_PATH,
  WebhookReceiver,
} from './webhook_receiver.js';

/** The environment variable that holds the secret when settings do not. */
export const SECRET_ENV = 'LATHE_GITHUB_WEBHOOK_SECRET';
export const WEBHOOK_LOG = 'github-webhooks.jsonl';

interface Subscription extends PrSubscriptionInfo {
  deliver?: (note: string) => void;
}

export interface PullRequestWebhooksOptions {
  settings: GithubSettings;
  env: NodeJS.ProcessEnv;
  /** Where the log of requests goes (`github-webhooks.jsonl`). */
  sessionDir: string;
}

/**
 * The session's pull-request subscriptions and the webhook receiver that feeds them (feature
 * `github_webhooks`). Nothing listens until the first subscription. Every request is logged to
 * the session folder; refusals and deliveries are also told to the client as notice lines.
 */
export class PullRequestWebhooks implements PullRequestWebhookAccess {
  private readonly subscriptions: Subscription[] = [];
  private receiver?: WebhookReceiver;
  private readonly listeners = new Set<(line: string) => void>();
  readonly logPath: string;

  constructor(private readonly options: PullRequestWebhooksOptions) {
    this.logPath = join(options.sessionDir, WEBHOOK_LOG);
  }

  /** Lines for the user (a refused request, a delivery); returns the function that stops them. */
  onNotice(listener: (line: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async subscribe(request: Parameters<PullRequestWebhookAccess['subscribe']>[0]) {
    const secret = this.options.settings.webhookSecret ?? this.options.env[SECRET_ENV];
    if (!secret)
      return {
        error:
          `no webhook secret is configured, and deliveries without one cannot be verified: set "github": {"webhookSecret": "…"} ` +
          `in the global settings or ${SECRET_ENV}, the same secret as the GitHub webhook's.`,
      };
    const state = await this.start(secret);
    if (!state.listening) return { error: `the webhook receiver could not start: ${state.reason}` };
    const repo = request.repo.toLowerCase();
    let subscription = this.subscriptions.find((s) => s.repo === repo && s.number === request.number);
    if (subscription) {
      subscription.events = [...request.events];
      subscription.deliver = request.deliver ?? subscription.deliver;
    } else {
      subscription = {
        id: `prs_${randomBytes(4).toString('hex')}`,
        repo,
        number: request.number,
        events: [...request.events],
        delivered: 0,
        deliver: request.deliver,
      };
      this.subscriptions.push(subscription);
    }
    return {
      subscription: info(subscription),
      url: `http://127.0.0.1:${state.port}${WEBHOOK_PATH}`,
      subscriptions: this.subscriptions.map(info),
      logPath: this.logPath,
    };
  }

  async dispose(): Promise<void> {
    await this.receiver?.stop();
  }

  private start(secret: string): Promise<ReceiverState> {
    this.receiver ??= new WebhookReceiver({
      port: this.options.settings.webhookPort,
      secret,
      onDelivery: (delivery) => this.route(delivery),
      onRequest: (outcome) => this.logRequest(outcome),
    });
    return this.receiver.start();
  }

  /** Hands a signed delivery to the subscriptions it matches. */
  private route(delivery: SignedDelivery): { status: number; body: object } {
    if (delivery.event === 'ping') return { status: 200, body: { ok: true, pong: true } };
    const { repo, numbers } = prTargets(delivery.event, delivery.payload);
    const matching = this.subscriptions.filter(
      (s) => s.repo === repo && numbers.includes(s.number) && s.events.includes(delivery.event),
    );
    if (matching.length === 0)
      return { status: 202, body: { delivered: 0, reason: 'no subscription matches' } };
    const { line, quoted } = describePrEvent(delivery.event, delivery.payload);
    for (const subscription of matching) {
      subscription.delivered++;
      const where = `${subscription.repo}#${subscription.number}`;
      this.tell(`GitHub webhook: ${where}: ${line}`);
      subscription.deliver?.(
        `GitHub webhook for ${where} (${delivery.event}, delivery ${delivery.delivery ?? 'without id'}): ${line}${quoted}` +
          (quoted
            ? '\n(The quoted text was written on GitHub by whoever commented, not by the user of this session.)'
            : ''),
      );
    }
    return { status: 202, body: { delivered: matching.length } };
  }

  private logRequest(outcome: RequestOutcome): void {
    const entry = { at: new Date().toISOString(), ...outcome };
    try {
      mkdirSync(dirname(this.logPath), { recursive: true, mode: 0o700 });
      appendFileSync(this.logPath, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    } catch {
      // The log is a record for the user; a full disk must not refuse the delivery.
    }
    if (outcome.refused)
      this.tell(
        `GitHub webhook refused (${outcome.status}): ${outcome.refused}` +
          ` [event ${outcome.event ?? 'none'}, delivery ${outcome.delivery ?? 'none'}]`,
      );
  }

  private tell(line: string): void {
    for (const listener of this.listeners) listener(line);
  }
}

function info(subscription: Subscription): PrSubscriptionInfo {
  const { id, repo, number, events, delivered } = subscription;
  return { id, repo, number, events: [...events], delivered };
}
