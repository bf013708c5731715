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

/** The shell start-up files of a home folder (protected by their names wherever they are). */
export function shellStartUpFiles(home = homedir()): string[] {
  return [...SHELL_RC_FILES].map((name) => join(home, name)).concat(join(home, FISH_CONFIG));
}

const FISH_CONFIG = join('.config', 'fish', 'config.fish');

/**
 * Protected paths always ask before a change, even under --yolo: any `.git/` folder,
 * the workspace's `.agents/` settings, lathe's own settings, and shell start-up files.
 */
export function protectedReason(real: string, workspace: string, documentsRoot: string): string | undefined {
  return protectedPathReasons(workspace, documentsRoot)(real);
}

/**
 * `protectedReason` for one workspace and documents root, for judging many paths: each is a real
 * path (absolute, normalised, as `realPathOf` gives it), so folders are told by their prefix.
 */
export function protectedPathReasons(
  workspace: string,
  documentsRoot: string,
): (real: string) => string | undefined {
  const inAgents = under(join(workspace, '.agents'));
  const mcpServers = join(workspace, '.mcp.json');
  const inSettings = under(join(documentsRoot, 'settings'));
  return (real) => {
    if (real.split(sep).includes('.git')) return 'a path inside .git/';
    if (inAgents(real)) return "the project's .agents/ settings";
    // The project's MCP servers run outside the sandbox at the next start: as protected as .agents/.
    if (real === mcpServers) return "the project's MCP servers (.mcp.json)";
    if (inSettings(real)) return "lathe's settings";
    if (SHELL_RC_FILES.has(basename(real))) return 'a shell start-up file';
    if (real.endsWith(FISH_CONFIG)) return 'a shell start-up file';
    return undefined;
  };
}

function under(folder: string): (real: string) => boolean {
  const prefix = folder.endsWith(sep) ? folder : folder + sep;
  return (real) => real === folder || real.startsWith(prefix);
}
