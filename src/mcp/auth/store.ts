import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { atomicWriteFile } from '../../edit/atomic_write.js';

/** One server's login, as kept on disk: what the authorization server gave lathe. */
export interface LoginRecord {
  serverUrl: string;
  /** The client lathe registered (dynamically, or as a metadata document URL); not a pre-registered one. */
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** When the tokens were received (ms since the epoch): `expires_in` counts from here. */
  obtainedAt?: number;
  discovery?: OAuthDiscoveryState;
  /** Scopes the server asked for beyond the login's (a 403 insufficient_scope); the next login asks for them. */
  stepUpScope?: string;
}

/** A server URL as one key: parsed and printed, so `HTTP://Host:443/x` and `http://host:443/x` agree. */
function canonicalUrl(serverUrl: string): string {
  try {
    return new URL(serverUrl).href;
  } catch {
    return serverUrl;
  }
}

/** The file of a server's login: its host (readable) and a hash of the whole URL (unique). */
export function loginFile(folder: string, serverUrl: string): string {
  const url = canonicalUrl(serverUrl);
  const host = (() => {
    try {
      return new URL(url).host;
    } catch {
      return 'server';
    }
  })().replace(/[^A-Za-z0-9.-]+/g, '_');
  const hash = createHash('sha256').update(url).digest('hex').slice(0, 16);
  return join(folder, `${host}-${hash}.json`);
}

/** The stored login of a server, or undefined (none, or a file that is not one: treated as none). */
export function readLogin(folder: string, serverUrl: string): LoginRecord | undefined {
  let text: string;
  try {
    text = readFileSync(loginFile(folder, serverUrl), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const record = JSON.parse(text) as LoginRecord;
    return record && record.serverUrl === canonicalUrl(serverUrl) ? record : undefined;
  } catch {
    return undefined;
  }
}

/** The folder, made private to the user (0700) even when it existed with looser bits. */
function privateFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  chmodSync(folder, 0o700);
}

/** Writes a server's login whole (temp file, flush, rename), readable by the user alone (0600). */
export async function writeLogin(folder: string, record: LoginRecord): Promise<void> {
  privateFolder(folder);
  const kept: LoginRecord = { ...record, serverUrl: canonicalUrl(record.serverUrl) };
  await atomicWriteFile(loginFile(folder, record.serverUrl), `${JSON.stringify(kept, null, 2)}\n`, {
    mode: 0o600,
  });
}

/** Removes a server's login; returns whether there was one. */
export function removeLogin(folder: string, serverUrl: string): boolean {
  const file = loginFile(folder, serverUrl);
  const existed = existsSync(file);
  rmSync(file, { force: true });
  return existed;
}

/** When the access token stops working (ms since the epoch), if the server said. */
export function expiresAt(record: LoginRecord | undefined): number | undefined {
  const seconds = record?.tokens?.expires_in;
  if (seconds === undefined || record?.obtainedAt === undefined) return undefined;
  return record.obtainedAt + seconds * 1000;
}
