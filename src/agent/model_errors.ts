import { ModelTimeoutError } from '../provider/timed_fetch.js';

/** Facts about a failed model request: whether to retry, how long to wait, and a one-line message. */
export interface ModelFailure {
  retryable: boolean;
  retryAfterMs?: number;
  message: string;
}

interface ApiCallErrorLike {
  name?: string;
  message?: string;
  statusCode?: number;
  url?: string;
  isRetryable?: boolean;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  cause?: unknown;
  errors?: unknown[];
}

function networkCode(error: unknown): string | undefined {
  for (let e = error as ApiCallErrorLike | undefined, depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: string }).code;
    if (code) return code;
    e = e.cause as ApiCallErrorLike | undefined;
  }
  return undefined;
}

/** The messages of an error and its causes, innermost last. */
function causeMessages(error: unknown): string[] {
  const messages: string[] = [];
  for (let e = error as ApiCallErrorLike | undefined, depth = 0; e && depth < 5; depth++) {
    if (typeof e.message === 'string') messages.push(e.message);
    e = e.cause as ApiCallErrorLike | undefined;
  }
  return messages;
}

function bodyMessage(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } | string; message?: string };
    if (typeof parsed.error === 'string') return parsed.error;
    return parsed.error?.message ?? parsed.message;
  } catch {
    return body.slice(0, 200);
  }
}

/** The timeout somewhere in an error's cause chain (the SDK may wrap it). */
function timeoutIn(error: unknown): ModelTimeoutError | undefined {
  for (let e = error, depth = 0; e && depth < 5; depth++) {
    if (e instanceof ModelTimeoutError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Which setting raises a timeout, and what to check first. */
function describeTimeout(timeout: ModelTimeoutError): string {
  const key = timeout.phase === 'first-byte' ? 'modelTimeouts.firstByte' : 'modelTimeouts.idle';
  return (
    `the model endpoint did not answer: ${timeout.message} (${key}). ` +
    `Check that the endpoint is up and reachable, or raise "${key}" (seconds) in settings for a slow model.`
  );
}

export function describeModelFailure(error: unknown, model: string): ModelFailure {
  const timeout = timeoutIn(error);
  if (timeout) return { retryable: true, message: describeTimeout(timeout) };
  const e = (error as ApiCallErrorLike & { lastError?: unknown }).lastError ?? error;
  const err = e as ApiCallErrorLike;
  const status = err.statusCode;
  if (status !== undefined) {
    const detail = bodyMessage(err.responseBody) ?? err.message ?? '';
    const retryAfter = Number(err.responseHeaders?.['retry-after']);
    const retryAfterMs = Number.isFinite(retryAfter) ? retryAfter * 1000 : undefined;
    if (status === 401 || status === 403) {
      return {
        retryable: false,
        message: `the provider refused the API key for ${model} (${status}: ${detail})`,
      };
    }
    if (status === 404) {
      return {
        retryable: false,
        message: `the provider does not know the model ${model}, or the base URL is wrong (404: ${detail})`,
      };
    }
    const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
    return { retryable, retryAfterMs, message: `${model} request failed (${status}: ${detail})` };
  }
  const code = networkCode(e);
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    const where = err.url ? ` ${new URL(err.url).origin}` : '';
    return {
      retryable: false,
      message: `cannot reach the model endpoint${where} (${code}): check the base URL`,
    };
  }
  if (causeMessages(e).includes('bad port')) {
    const where = err.url ? ` ${new URL(err.url).origin}` : '';
    return {
      retryable: false,
      message: `cannot reach the model endpoint${where}: fetch never connects to that port (a port such as 1, 9 or 6000 that browsers block too); use another port`,
    };
  }
  if (code === 'ECONNRESET' || code === 'ETIMEDOUT' || code === 'UND_ERR_SOCKET') {
    return { retryable: true, message: `the connection to ${model} failed (${code})` };
  }
  return { retryable: false, message: (err.message ?? String(error)).split('\n')[0] };
}
