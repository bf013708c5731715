import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** An AGENTS.md larger than this is cut (the model is told so). */
const MAX_CHARS = 20_000;

export interface AgentsFile {
  path: string;
  text: string;
}

/** The folder holding `.git` above `start`, or undefined outside a repository. */
export function repoRoot(start: string): string | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The AGENTS.md files from the working folder up to the repository root, nearest first. */
export function findAgentsFiles(cwd: string): AgentsFile[] {
  const root = repoRoot(cwd) ?? cwd;
  const files: AgentsFile[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    const path = join(dir, 'AGENTS.md');
    try {
      let text = readFileSync(path, 'utf8');
      if (text.length > MAX_CHARS)
        text = `${text.slice(0, MAX_CHARS)}\n[… AGENTS.md cut at ${MAX_CHARS} characters]`;
      files.push({ path, text });
    } catch {
      // none here
    }
    if (dir === root || dirname(dir) === dir) break;
  }
  return files;
}
