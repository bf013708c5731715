import type { ModelTimeouts } from '../config/timeouts.js';

/**
 * A model endpoint that accepted the request but sent nothing (`first-byte`: no response
 * headers in time) or stopped sending mid-answer (`idle`). Retried like a dropped connection.
 */
export class ModelTimeoutError extends Error {
  override readonly name = 'ModelTimeoutError';

  constructor(
    readonly phase: 'first-byte' | 'idle',
    /** The request's URL without its query (which may carry a key). */
    readonly endpoint: string,
    readonly ms: number,
  ) {
    super(
      phase === 'first-byte'
        ? `no response from ${endpoint} within ${ms / 1000} s`
        : `${endpoint} stopped sending for ${ms / 1000} s in the middle of its answer`,
    );
  }
}

function endpointOf(input: Parameters<typeof fetch>[0]): string {
  const raw = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  try {
    const url = new URL(raw);
    return `${url.origin}${url.pathname}`;
  } catch {
    return raw;
  }
}

/**
 * `fetch` with the two timeouts a streaming model request needs (the AI SDK has neither, and
 * Node's own are 300 s): the response must start within `firstByteMs`, and the body may not
 * pause longer than `idleMs` while it is being read. Either ends the request with a
 * ModelTimeoutError; the caller's own abort still wins.
 */
export function fetchWithTimeouts(timeouts: ModelTimeouts, base: typeof fetch): typeof fetch {
  return async (input, init) => {
    const endpoint = endpointOf(input);
    const controller = new AbortController();
    const outer = init?.signal ?? undefined;
    const forward = () => controller.abort(outer?.reason);
    if (outer?.aborted) forward();
    else outer?.addEventListener('abort', forward, { once: true });
    const release = () => outer?.removeEventListener('abort', forward);

    let timer: NodeJS.Timeout | undefined;
    let expired: ModelTimeoutError | undefined;
    const arm = (phase: ModelTimeoutError['phase'], ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        expired = new ModelTimeoutError(phase, endpoint, ms);
        controller.abort(expired);
      }, ms);
    };
    const disarm = () => clearTimeout(timer);

    arm('first-byte', timeouts.firstByteMs);
    let response: Response;
    try {
      response = await base(input, { ...init, signal: controller.signal });
    } catch (error) {
      release();
      throw expired ?? error;
    } finally {
      disarm();
    }
    if (!response.body) {
      release();
      return response;
    }
    const reader = response.body.getReader();
    // The clock runs only while a read waits on the network, not while the consumer is busy.
    const body = new ReadableStream<Uint8Array>({
      async pull(out) {
        arm('idle', timeouts.idleMs);
        try {
          const { done, value } = await reader.read();
          if (done) {
            release();
            out.close();
          } else out.enqueue(value);
        } catch (error) {
          release();
          throw expired ?? error;
        } finally {
          disarm();
        }
      },
      async cancel(reason) {
        disarm();
        release();
        await reader.cancel(reason);
      },
    });
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
