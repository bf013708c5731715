import type { BrowserContext } from 'playwright-core';
import { checkTarget, type Resolver } from '../web/address_policy.js';

/** What every request the browser makes is judged by: the web tools' address policy and the domain rules. */
export interface RequestPolicy {
  /** Settings `web.allow`: addresses, ranges and names beyond global unicast. */
  allow: readonly string[];
  resolve?: Resolver;
  /** Why permission rules refuse this host (a deny rule), or undefined. */
  hostRefused?(host: string): string | undefined;
}

/** Why a request to this URL may not be made, or undefined when it may. */
export async function refusalOf(url: string, policy: RequestPolicy): Promise<string | undefined> {
  const judged = await refusalWithAddress(url, policy);
  return 'refused' in judged ? judged.refused : undefined;
}

/** Why a request to this URL may not be made, or the one address it must connect to. */
export async function refusalWithAddress(
  url: string,
  policy: RequestPolicy,
): Promise<{ refused: string } | { address: string }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { refused: `"${url}" is not a valid URL` };
  }
  const verdict = await checkTarget(parsed, { allow: policy.allow, resolve: policy.resolve });
  if (!verdict.ok) return { refused: verdict.reason };
  const refused = policy.hostRefused?.(verdict.host);
  return refused === undefined ? { address: verdict.address } : { refused };
}

/**
 * Puts every request of the context through the policy before it leaves the browser: page
 * loads, frames, scripts, images, fetches, and WebSockets. A refused one is aborted and never
 * reaches the network; `onRefused` hears of it (the network log).
 */
export async function guardRequests(
  context: BrowserContext,
  policy: RequestPolicy,
  onRefused: (url: string, reason: string) => void,
): Promise<void> {
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    const reason = await refusalOf(url, policy);
    if (reason === undefined) return route.continue().catch(() => {});
    onRefused(url, reason);
    return route.abort('blockedbyclient').catch(() => {});
  });
  await context.routeWebSocket(/.*/, async (socket) => {
    const reason = await refusalOf(socket.url().replace(/^ws/, 'http'), policy);
    if (reason === undefined) {
      socket.connectToServer();
      return;
    }
    onRefused(socket.url(), reason);
    await socket.close({ code: 1008, reason: 'refused by lathe' }).catch(() => {});
  });
}
