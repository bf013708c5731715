import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { globalMcpSettingsPath } from '../config/paths.js';
import { readSettingsObject, writeJsonFile } from '../config/settings_file.js';
import { workspaceMcpFiles, workspaceMcpSources } from './config.js';

type Settings = { mcpServers?: Record<string, unknown>; [key: string]: unknown };

/**
 * Reads a settings file for editing; a broken file is an error (never overwritten). Comments
 * in a JSONC file are not kept when it is written back.
 */
function readForEdit(file: string): Settings {
  return (readSettingsObject(file) ?? {}) as Settings;
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
  writeJsonFile(file, { ...settings, mcpServers: servers });
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
  // lathe's own workspace files are deleted when left empty; the shared `.mcp.json` is kept.
  const workspaceFiles = new Set(workspaceMcpFiles(places.workspace));
  for (const file of [
    globalMcpSettingsPath(places.documentsRoot),
    ...workspaceMcpSources(places.workspace),
  ]) {
    const settings = readForEdit(file);
    if (!settings.mcpServers || !(name in settings.mcpServers)) continue;
    const { [name]: _removed, ...rest } = settings.mcpServers;
    const next = { ...settings, mcpServers: rest };
    if (workspaceFiles.has(file) && Object.keys(rest).length === 0 && Object.keys(next).length === 1) {
      unlinkSync(file);
    } else {
      writeJsonFile(file, next);
    }
    changed.push(file);
  }
  return changed;
}
