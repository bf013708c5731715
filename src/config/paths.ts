import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** documents-root: `$LATHE_HOME`, default `~/.lathe`: settings, sessions, rules and schedules live there. */
export function documentsRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.LATHE_HOME && env.LATHE_HOME.length > 0 ? env.LATHE_HOME : join(homedir(), '.lathe');
}

export function globalSettingsPath(root: string): string {
  return join(root, 'settings', 'settings.json');
}

/** The terminal UI's keys (docs/tui.md): the user's own, never a workspace's. */
export function keybindingsPath(root: string): string {
  return join(root, 'settings', 'keybindings.json');
}

export function globalMcpSettingsPath(root: string): string {
  return join(root, 'settings', 'mcp_settings.json');
}

export function workspaceSettingsPath(workspace: string): string {
  return join(workspace, '.agents', 'settings.json');
}

/** The OAuth logins to MCP servers, one file per server URL: the user's own, never a workspace's. */
export function mcpAuthFolder(root: string): string {
  return join(root, 'mcp-auth');
}

/** The folders the user trusts (and declined to), kept with the user's settings, never in a workspace. */
export function trustedFoldersPath(root: string): string {
  return join(root, 'settings', 'trusted_folders.json');
}

/** The project MCP file other agents write (`claude mcp add -s project`). */
export function projectMcpJsonPath(workspace: string): string {
  return join(workspace, '.mcp.json');
}

/**
 * A folder name for a workspace, one per exact path: a readable slug of the path (its last
 * parts) and a short hash of the whole, so `/x/a-b` and `/x/a/b` never share a folder.
 */
export function projectKey(workspace: string): string {
  const slug = legacyProjectKey(workspace).slice(-48).replace(/^-+/, '') || 'root';
  const hash = createHash('sha256').update(workspace).digest('hex').slice(0, 10);
  return `${slug}-${hash}`;
}

/** The folder name older versions used: the path with separators flattened (not unique). */
export function legacyProjectKey(workspace: string): string {
  return workspace.replace(/[\\/:]+/g, '-').replace(/^-+/, '') || 'root';
}

export function sessionsDir(root: string, workspace: string): string {
  return join(root, 'sessions', projectKey(workspace));
}

/** Where older versions kept this workspace's sessions (shared with look-alike paths). */
export function legacySessionsDir(root: string, workspace: string): string {
  return join(root, 'sessions', legacyProjectKey(workspace));
}
