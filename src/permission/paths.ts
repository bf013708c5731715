import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { isInside } from '../util/inside_folder.js';

export { isInside };

export interface ResolvedPath {
  /** Absolute, normalised (`a/../b` folded), symlinks not followed. */
  lexical: string;
  /** Symlinks followed as far as the path exists; the rest appended. */
  real: string;
}

/** The real path of `p`, following symlinks through the longest existing prefix. */
export function realPathOf(p: string): string {
  const missing: string[] = [];
  let current = p;
  for (;;) {
    try {
      return join(realpathSync.native(current), ...missing.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return p;
      missing.push(basename(current));
      current = parent;
    }
  }
}

export function expandHome(p: string): string {
  if (p === '~') return homedir();
  if (p.startsWith('~/')) return join(homedir(), p.slice(2));
  return p;
}

export function resolvePath(p: string, cwd: string): ResolvedPath {
  const lexical = resolve(cwd, expandHome(p));
  return { lexical, real: realPathOf(lexical) };
}

const SHELL_RC_FILES = new Set([
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zprofile',
  '.zshenv',
  '.zlogin',
  '.zlogout',
  '.cshrc',
  '.tcshrc',
  '.kshrc',
  '.inputrc',
]);

/**
 * Protected paths always ask before a change, even under --yolo: any `.git/` folder,
 * the workspace's `.agents/` settings, lathe's own settings, and shell start-up files.
 */
export function protectedReason(real: string, workspace: string, documentsRoot: string): string | undefined {
  const parts = real.split(sep);
  if (parts.includes('.git')) return 'a path inside .git/';
  if (isInside(real, join(workspace, '.agents'))) return "the project's .agents/ settings";
  // The project's MCP servers run outside the sandbox at the next start: as protected as .agents/.
  if (real === join(workspace, '.mcp.json')) return "the project's MCP servers (.mcp.json)";
  if (isInside(real, join(documentsRoot, 'settings'))) return "lathe's settings";
  if (SHELL_RC_FILES.has(basename(real))) return 'a shell start-up file';
  if (real.endsWith(join('.config', 'fish', 'config.fish'))) return 'a shell start-up file';
  return undefined;
}
