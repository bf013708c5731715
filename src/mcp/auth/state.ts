import type { McpServerConfig } from '../config.js';
import { expiresAt, readLogin } from './store.js';

/** Server URLs this process found needing a login, until a login (or refresh) succeeds. */
const needingLogin = new Set<string>();

export function noteNeedsLogin(serverUrl: string, needs: boolean): void {
  if (needs) needingLogin.add(serverUrl);
  else needingLogin.delete(serverUrl);
}

export type AuthState =
  | { kind: 'none' }
  | { kind: 'needs login' }
  | { kind: 'logged in'; expiresAt?: number; refreshable: boolean };

/** A server's login as the user sees it: none (no OAuth, or not asked), needs login, or logged in. */
export function authState(config: McpServerConfig): AuthState {
  if (!config.oauth || !config.authFolder || !config.url) return { kind: 'none' };
  if (needingLogin.has(config.url)) return { kind: 'needs login' };
  const record = readLogin(config.authFolder, config.url);
  if (!record?.tokens) return { kind: 'none' };
  return { kind: 'logged in', expiresAt: expiresAt(record), refreshable: !!record.tokens.refresh_token };
}

function minutes(ms: number): string {
  const m = Math.round(Math.abs(ms) / 60_000);
  if (m < 1) return 'less than a minute';
  if (m < 120) return `${m} min`;
  const h = Math.round(m / 60);
  return h < 48 ? `${h} h` : `${Math.round(h / 24)} days`;
}

/** One short phrase: `none`, `needs login`, `logged in, expires in 58 min`, `logged in, expired 2 min ago (refreshed on next use)`. */
export function authStateText(state: AuthState, now = Date.now()): string {
  if (state.kind !== 'logged in') return state.kind;
  if (state.expiresAt === undefined) return 'logged in';
  const left = state.expiresAt - now;
  return left > 0
    ? `logged in, expires in ${minutes(left)}`
    : `logged in, expired ${minutes(left)} ago (${state.refreshable ? 'refreshed on next use' : 'log in again'})`;
}
