import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readSettingsObject } from '../../config/settings_file.js';
import { codexEntry, type FoundServer, geminiEntry, serversOf, vscodeEntry } from './entries.js';

export const IMPORT_SOURCES = ['claude', 'codex', 'gemini', 'cursor', 'vscode'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

export interface SourceReading {
  servers: FoundServer[];
  /** The files looked at, each with whether it was there. */
  files: { file: string; found: boolean }[];
  /** Workspace files not read because the folder is not trusted. */
  untrusted: string[];
}

interface Places {
  workspace: string;
  workspaceTrusted: boolean;
  home?: string;
}

type Reader = (file: string) => FoundServer[];

/** An `mcpServers` (or other key's) JSON/JSONC file. */
const jsonServers =
  (key = 'mcpServers', convert?: Parameters<typeof serversOf>[2]): Reader =>
  (file) =>
    serversOf(readSettingsObject(file)?.[key], file, convert);

function claudeCode(workspace: string): Reader {
  return (file) => {
    const settings = readSettingsObject(file) ?? {};
    const projects = settings.projects as Record<string, { mcpServers?: unknown }> | undefined;
    return [
      ...serversOf(settings.mcpServers, file),
      ...serversOf(projects?.[workspace]?.mcpServers, `${file} (project ${workspace})`),
    ];
  };
}

function codexToml(file: string): FoundServer[] {
  const { parse } = createRequire(import.meta.url)('smol-toml') as typeof import('smol-toml');
  let parsed: Record<string, unknown>;
  try {
    parsed = parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: not valid TOML (${(error as Error).message.split('\n')[0]})`);
  }
  return serversOf(parsed.mcp_servers, file, codexEntry);
}

/** The files of one program: its user-level ones and, in a trusted folder, its workspace ones. */
function sourceFiles(
  source: ImportSource,
  places: Places,
): { user: [string, Reader][]; workspace: [string, Reader][] } {
  const home = places.home ?? homedir();
  const ws = places.workspace;
  switch (source) {
    case 'claude':
      return {
        user: [
          [join(home, '.config', 'Claude', 'claude_desktop_config.json'), jsonServers()],
          [
            join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json'),
            jsonServers(),
          ],
          [join(home, '.claude.json'), claudeCode(ws)],
        ],
        workspace: [],
      };
    case 'codex':
      return { user: [[join(home, '.codex', 'config.toml'), codexToml]], workspace: [] };
    case 'gemini':
      return {
        user: [[join(home, '.gemini', 'settings.json'), jsonServers('mcpServers', geminiEntry)]],
        workspace: [[join(ws, '.gemini', 'settings.json'), jsonServers('mcpServers', geminiEntry)]],
      };
    case 'cursor':
      return {
        user: [[join(home, '.cursor', 'mcp.json'), jsonServers()]],
        workspace: [[join(ws, '.cursor', 'mcp.json'), jsonServers()]],
      };
    case 'vscode':
      return {
        user: [],
        workspace: [[join(ws, '.vscode', 'mcp.json'), jsonServers('servers', vscodeEntry)]],
      };
  }
}

/**
 * Reads the MCP servers another program keeps. Workspace files are read only in a trusted
 * folder (they came with the folder); a file that does not parse throws, naming it.
 */
export function readImportSource(source: ImportSource, places: Places): SourceReading {
  const { user, workspace } = sourceFiles(source, places);
  const reading: SourceReading = { servers: [], files: [], untrusted: [] };
  const read = ([file, reader]: [string, Reader]) => {
    const found = existsSync(file);
    reading.files.push({ file, found });
    if (found) reading.servers.push(...reader(file));
  };
  user.forEach(read);
  for (const item of workspace) {
    if (places.workspaceTrusted) read(item);
    else if (existsSync(item[0])) reading.untrusted.push(item[0]);
  }
  return reading;
}
