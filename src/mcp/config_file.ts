import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { globalMcpSettingsPath } from '../config/paths.js';
import { workspaceMcpFiles } from './config.js';

type Settings = { mcpServers?: Record<string, unknown>; [key: string]: unknown };

/** Reads a settings file for editing; a broken file is an error (never overwritten). */
function readForEdit(file: string): Settings {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${(error as Error).message}); fix it by hand first`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${file} does not hold a JSON object; fix it by hand first`);
  }
  return parsed as Settings;
}

/** Writes through a temporary file and a rename, so a crash never leaves half a file. */
function writeSettings(file: string, settings: Settings): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  writeFileSync(temporary, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}

/** The file `lathe mcp add` writes: global settings, or `.agents/mcp/NAME.json` with `--workspace`. */
export function mcpFileFor(
  scope: 'global' | 'workspace',
  name: string,
  places: { documentsRoot: string; workspace: string },
): string {
  return scope === 'global'
    ? globalMcpSettingsPath(places.documentsRoot)
    : join(places.workspace, '.agents', 'mcp', `${name.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`);
}

/** Adds (or replaces) one server entry; returns whether one was replaced. */
export function writeServerEntry(file: string, name: string, entry: Record<string, unknown>): boolean {
  const settings = readForEdit(file);
  const servers = { ...(settings.mcpServers ?? {}) };
  const replaced = name in servers;
  servers[name] = entry;
  writeSettings(file, { ...settings, mcpServers: servers });
  return replaced;
}

/**
 * Removes a server from every file that names it (global and workspace); a workspace file left
 * with no servers and nothing else is deleted. Returns the files changed.
 */
export function removeServerEntry(
  name: string,
  places: { documentsRoot: string; workspace: string },
): string[] {
  const changed: string[] = [];
  const workspaceFiles = new Set(workspaceMcpFiles(places.workspace));
  for (const file of [globalMcpSettingsPath(places.documentsRoot), ...workspaceFiles]) {
    const settings = readForEdit(file);
    if (!settings.mcpServers || !(name in settings.mcpServers)) continue;
    const { [name]: _removed, ...rest } = settings.mcpServers;
    const next = { ...settings, mcpServers: rest };
    if (workspaceFiles.has(file) && Object.keys(rest).length === 0 && Object.keys(next).length === 1) {
      unlinkSync(file);
    } else {
      writeSettings(file, next);
    }
    changed.push(file);
  }
  return changed;
}
