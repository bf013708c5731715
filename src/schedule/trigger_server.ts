import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError, readBody, sendJson } from '../util/http_body.js';
import { type EndpointState, LocalEndpoint } from '../util/local_endpoint.js';
import { type StoredTrigger, type TriggerStore, tokenMatches } from './trigger_store.js';

/** The endpoint's port unless LATHE_TRIGGER_PORT says otherwise (0: any free port). */
export const DEFAULT_TRIGGER_PORT = 7391;
const MAX_BODY_BYTES = 64 * 1024;

export type { EndpointState };

export interface TriggerServerOptions {
  store: TriggerStore;
  port: number;
  /** Starts the run a valid request asks for; returns what to tell the caller. */
  onTrigger(trigger: StoredTrigger, prompt: string): { id: string; logPath: string };
}

function promptOf(body: string): string | undefined {
  if (body.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new HttpError(400, 'the body is not JSON; send {"prompt": "…"}');
  }
  const prompt = (parsed as { prompt?: unknown } | null)?.prompt;
  if (prompt !== undefined && typeof prompt !== 'string')
    throw new HttpError(400, '"prompt" must be a string');
  return prompt;
}

/**
 * The remote-trigger endpoint on 127.0.0.1: `POST /trigger/<id>` with `Authorization: Bearer
 * <token>` and `{"prompt": "…"}` starts a headless run. The trigger list is read on every
 * request, so triggers made or revoked by any lathe process take effect at once.
 */
export class TriggerServer {
  private readonly endpoint: LocalEndpoint;

  constructor(private readonly options: TriggerServerOptions) {
    this.endpoint = new LocalEndpoint({
      port: options.port,
      inUse: 'another lathe may serve the triggers there; LATHE_TRIGGER_PORT picks another',
      respond: (req, res) => this.respond(req, res),
    });
  }

  start(): Promise<EndpointState> {
    return this.endpoint.start();
  }

  stop(): Promise<void> {
    return this.endpoint.stop();
  }

  private async respond(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const { status, body } = await this.handle(req);
      sendJson(res, status, body);
    } catch (error) {
      if (error instanceof HttpError) sendJson(res, error.status, { error: error.message });
      else sendJson(res, 500, { error: (error as Error).message });
    }
  }

  private async handle(req: IncomingMessage): Promise<{ status: number; body: object }> {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const match = /^\/trigger\/([A-Za-z0-9_-]+)$/.exec(path);
    if (!match) throw new HttpError(404, 'not found; POST /trigger/<id>');
    if (req.method !== 'POST') throw new HttpError(405, 'use POST');
    const body = (await readBody(req, MAX_BODY_BYTES)).toString('utf8');
    const auth = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (!auth) throw new HttpError(401, 'missing "Authorization: Bearer <token>"');
    const trigger = (await this.options.store.list()).find((t) => t.id === match[1]);
    // One answer for an unknown trigger and a wrong token: the endpoint tells a guesser nothing.
    if (!trigger || !tokenMatches(trigger, auth[1]))
      throw new HttpError(401, 'unknown trigger or wrong token');
    const prompt = promptOf(body) ?? trigger.prompt;
    if (!prompt?.trim())
      throw new HttpError(400, 'no prompt: send {"prompt": "…"} (this trigger has no default)');
    const run = this.options.onTrigger(trigger, prompt);
    await this.options.store.markFired(trigger.id, new Date());
    return { status: 202, body: { run: run.id, log: run.logPath } };
  }
}
