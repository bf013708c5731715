import { createHmac, timingSafeEqual } from 'node:crypto';

/** The `X-Hub-Signature-256` value GitHub sends with `body` when the hook's secret is `secret`. */
export function signWebhookBody(secret: string, body: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * Why a delivery's signature does not prove it came from the hook with `secret`, or undefined
 * when it does. The comparison takes the same time whatever the bytes, so a caller learns
 * nothing from timing.
 */
export function signatureProblem(
  secret: string,
  body: Buffer,
  header: string | string[] | undefined,
): string | undefined {
  if (header === undefined || header === '') return 'unsigned (no X-Hub-Signature-256 header)';
  if (Array.isArray(header)) return 'more than one X-Hub-Signature-256 header';
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!match) return 'malformed X-Hub-Signature-256 header (want sha256=<64 hex digits>)';
  const expected = createHmac('sha256', secret).update(body).digest();
  const given = Buffer.from(match[1], 'hex');
  return timingSafeEqual(expected, given)
    ? undefined
    : 'bad signature (not signed with the configured secret)';
}
