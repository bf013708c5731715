import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, readBody, sendJson } from '../util/http_body.js';
import { type EndpointState, LocalEndpoint } from '../util/local_endpoint.js';
import { signatureProblem } from './webhook_signature.js';

/** GitHub caps a delivery's payload at 25 MB; a pull request's events are far smaller. */
const MAX_BODY_BYTES = 5 * 1024 * 1024;
export const WEBHOOK_PATH = '/github';

/** A delivery whose signature checked out. */
export interface SignedDelivery {
  event: string;
  delivery?: string;
  payload: unknown;
}

/** What became of one request, for the log. */
export interface RequestOutcome {
  status: number;
  event?: string;
  delivery?: string;
  /** Why it was refused (any status of 400 and above). */
  refused?: string;
}

export type ReceiverState = EndpointState;

export interface WebhookReceiverOptions {
  port: number;
  secret: string;
  /** Handles a signed delivery; returns the status and body to answer with. */
  onDelivery(delivery: SignedDelivery): { status: number; body: object };
  /** Hears of every request: refused ones too. */
  onRequest(outcome: RequestOutcome): void;
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** GitHub sends JSON, or a form with the JSON in `payload` when the hook was made so. */
function parsePayload(body: Buffer, contentType: string | undefined): unknown {
  let text = body.toString('utf8');
  if (contentType?.startsWith('application/x-www-form-urlencoded'))
    text = new URLSearchParams(text).get('payload') ?? '';
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'the payload is not JSON');
  }
}

/**
 * The webhook receiver on 127.0.0.1: `POST /github` with GitHub's headers. Every delivery must
 * carry `X-Hub-Signature-256`, the HMAC of its body with the configured secret; an unsigned or
 * wrongly signed one is refused (401) before its body is parsed, and reported.
 */
export class WebhookReceiver {
  private readonly endpoint: LocalEndpoint;

  constructor(private readonly options: WebhookReceiverOptions) {
    this.endpoint = new LocalEndpoint({
      port: options.port,
      inUse:
        'another lathe may receive webhooks there; settings github.webhookPort picks another, 0 any free one',
      respond: (req, res) => this.respond(req, res),
    });
  }

  start(): Promise<ReceiverState> {
    return this.endpoint.start();
  }

  stop(): Promise<void> {
    return this.endpoint.stop();
  }

  private async respond(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const event = header(req, 'x-github-event');
    const delivery = header(req, 'x-github-delivery');
    try {
      const { status, body } = await this.handle(req, event, delivery);
      this.options.onRequest({ status, event, delivery });
      sendJson(res, status, body);
    } catch (error) {
      const status = error instanceof HttpError ? error.status : 500;
      const reason = (error as Error).message;
      this.options.onRequest({ status, event, delivery, refused: reason });
      sendJson(res, status, { error: reason });
    }
  }

  private async handle(
    req: IncomingMessage,
    event: string | undefined,
    delivery: string | undefined,
  ): Promise<{ status: number; body: object }> {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path !== WEBHOOK_PATH) throw new HttpError(404, `not found; POST ${WEBHOOK_PATH}`);
    if (req.method !== 'POST') throw new HttpError(405, 'use POST');
    const body = await readBody(req, MAX_BODY_BYTES);
    // The signature first: nothing of an unproven body is read.
    const problem = signatureProblem(this.options.secret, body, req.headers['x-hub-signature-256']);
    if (problem) throw new HttpError(401, problem);
    if (!event) throw new HttpError(400, 'no X-GitHub-Event header');
    const payload = parsePayload(body, header(req, 'content-type'));
    return this.options.onDelivery({ event, delivery, payload });
  }
}
