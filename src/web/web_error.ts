/** A fetch that failed for a reason the model can act on; `message` is the one line it sees. */
export class WebError extends Error {
  override readonly name = 'WebError';

  constructor(
    message: string,
    /** What kind of failure, for callers that treat some differently (a cache may serve stale on `network`). */
    readonly kind: 'refused' | 'timeout' | 'too_large' | 'network' | 'status' | 'content' = 'network',
  ) {
    super(message);
  }
}

/** "10 MB", "512 KB", "17 bytes". */
export function describeBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / 1024 / 1024).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}
