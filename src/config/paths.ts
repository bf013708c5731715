import { homedir } from 'node:os';
import { join } from 'node:path';

/** documents-root: `$LATHE_HOME`, default `~/.lathe` (SPEC §6). */
export function documentsRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.LATHE_HOME && env.LATHE_HOME.length > 0 ? env.LATHE_HOME : join(homedir(), '.lathe');
}

export function globalSettingsPath(root: string): string {
  return join(root, 'settings', 'settings.json');
}

export function globalMcpSettingsPath(root: string): string {
  return join(root, 'settings', 'mcp_settings.json');
}

export function workspaceSettingsPath(workspace: string): string {
  return join(workspace, '.agents', 'settings.json');
}

/** The folders the user trusts (and declined to), kept with the user's settings, never in a workspace. */
export function trustedFoldersPath(root: string): string {
  return join(root, 'settings', 'trusted_folders.json');
}

/** The project MCP file other agents write (`claude mcp add -s project`). */
export function projectMcpJsonPath(workspace: string): string {
  return join(workspace, '.mcp.json');
}

/** A stable folder name for a workspace: its path with separators flattened. */
export function projectKey(workspace: string): string {
  return workspace.replace(/[\\/:]+/g, '-').replace(/^-+/, '') || 'root';
}

export function sessionsDir(root: string, workspace: string): string {
  return join(root, 'sessions', projectKey(workspace));
}
