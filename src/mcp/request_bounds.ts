/** A deadline passed (a server that never finished starting). */
export class DeadlineError extends Error {}

/** `fn`'s result, or a DeadlineError once `ms` have passed (no deadline when `ms` is undefined). */
export async function withDeadline<T>(ms: number | undefined, fn: () => Promise<T>): Promise<T> {
  if (ms === undefined) return fn();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DeadlineError(`the server did not finish starting within ${ms / 1000} s`)),
      ms,
    );
  });
  try {
    return await Promise.race([fn(), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs one SDK request under its own signal: the SDK never removes the abort listener it adds,
 * so a signal shared by many requests would collect listeners.
 */
export async function withOwnSignal<T>(
  signal: AbortSignal,
  fn: (own: AbortSignal) => Promise<T>,
): Promise<T> {
  const own = new AbortController();
  const forward = () => own.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener('abort', forward, { once: true });
  try {
    return await fn(own.signal);
  } finally {
    signal.removeEventListener('abort', forward);
  }
}

export function lastLine(text: string): string {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  return (lines.at(-1) ?? '').slice(0, 300);
}
