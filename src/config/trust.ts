import { realpathSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { trustedFoldersPath } from './paths.js';
import { readSettingsObject, SettingsError, writeJsonFile } from './settings_file.js';

/**
 * Workspace trust. A folder's own MCP servers, hooks and settings that loosen security apply
 * only once the user trusts it. The list lives in documents-root (`settings/trusted_folders.json`),
 * never in a workspace, as real paths; trusting a folder trusts every folder below it.
 * `declined` remembers the folders the user said no to, so the UI does not ask again.
 */
export interface TrustList {
  trusted: string[];
  declined: string[];
}

/** What a workspace carries that waits for trust, and whether it has it. */
export interface WorkspaceTrust {
  trusted: boolean;
  /** Workspace MCP servers not started because the folder is not trusted. */
  mcpServers: Array<{ name: string; file: string; command: string }>;
  /** Settings of the workspace that were ignored (`2 allow rules`, `sandbox.mode=off`). */
  settings: string[];
}

/** A path's real path (symlinks resolved); the absolute path itself when it does not exist. */
export function realFolder(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}

export function isSameOrBelow(folder: string, parent: string): boolean {
  if (folder === parent || parent === sep) return true;
  return folder.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}

function stringList(value: unknown, file: string, key: string): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  throw new SettingsError(`${file}: "${key}" must be a list of folder paths`);
}

export function readTrustList(documentsRoot: string): TrustList {
  const file = trustedFoldersPath(documentsRoot);
  const value = readSettingsObject(file) ?? {};
  return {
    trusted: stringList(value.trusted, file, 'trusted'),
    declined: stringList(value.declined, file, 'declined'),
  };
}

function writeTrustList(documentsRoot: string, list: TrustList): void {
  writeJsonFile(trustedFoldersPath(documentsRoot), list);
}

/** The trusted entry that covers `folder` (itself or a folder above it), if any. */
export function trustingEntry(documentsRoot: string, folder: string): string | undefined {
  const real = realFolder(folder);
  return readTrustList(documentsRoot).trusted.find((entry) => isSameOrBelow(real, realFolder(entry)));
}

export function isFolderTrusted(documentsRoot: string, folder: string): boolean {
  return trustingEntry(documentsRoot, folder) !== undefined;
}

export function wasDeclined(documentsRoot: string, folder: string): boolean {
  return readTrustList(documentsRoot).declined.includes(realFolder(folder));
}

/** Adds a folder (its real path) to the trusted list; a folder that is not there is an Error. */
export function trustFolder(documentsRoot: string, folder: string): { folder: string; added: boolean } {
  const real = realFolder(folder);
  let isDirectory = false;
  try {
    isDirectory = statSync(real).isDirectory();
  } catch {
    throw new Error(`${folder} does not exist`);
  }
  if (!isDirectory) throw new Error(`${folder} is not a folder`);
  const list = readTrustList(documentsRoot);
  const added = !list.trusted.includes(real);
  writeTrustList(documentsRoot, {
    trusted: added ? [...list.trusted, real] : list.trusted,
    declined: list.declined.filter((entry) => entry !== real),
  });
  return { folder: real, added };
}

/**
 * Removes a folder from the trusted list. When it stays trusted through a folder above it,
 * `coveredBy` names that entry.
 */
export function untrustFolder(
  documentsRoot: string,
  folder: string,
): { folder: string; removed: boolean; coveredBy?: string } {
  const real = realFolder(folder);
  const list = readTrustList(documentsRoot);
  const kept = list.trusted.filter((entry) => entry !== real && realFolder(entry) !== real);
  const removed = kept.length !== list.trusted.length;
  if (removed) writeTrustList(documentsRoot, { ...list, trusted: kept });
  const coveredBy = kept.find((entry) => isSameOrBelow(real, realFolder(entry)));
  return { folder: real, removed, ...(coveredBy ? { coveredBy } : {}) };
}

/** Remembers that the user would not trust a folder (the UI does not ask again). */
export function declineFolder(documentsRoot: string, folder: string): void {
  const real = realFolder(folder);
  const list = readTrustList(documentsRoot);
  if (!list.declined.includes(real))
    writeTrustList(documentsRoot, { ...list, declined: [...list.declined, real] });
}

export function needsTrust(trust: WorkspaceTrust): boolean {
  return !trust.trusted && (trust.mcpServers.length > 0 || trust.settings.length > 0);
}

const shorten = (text: string) => (text.length > 60 ? `${text.slice(0, 59)}…` : text);

/** The one line that says what an untrusted folder did not get, or undefined when it lost nothing. */
export function trustNotice(trust: WorkspaceTrust): string | undefined {
  if (!needsTrust(trust)) return undefined;
  const parts: string[] = [];
  const servers = trust.mcpServers;
  if (servers.length > 0) {
    const which = servers.map((s) => `${s.file}: ${shorten(s.command)}`).join('; ');
    parts.push(`its ${servers.length === 1 ? 'MCP server' : `${servers.length} MCP servers`} (${which})`);
  }
  parts.push(...trust.settings);
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0];
  return `this folder is not trusted: ignored ${list}; run \`lathe trust\` or pass --trust`;
}
