import { type Dirent, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, relative } from 'node:path';
import { problemLine } from '../agent_types/discover.js';
import { FieldError } from '../agent_types/field_error.js';
import { repoRoot } from '../agents_md.js';
import { type RuleContent, readRule } from './read_rule.js';
import type { RuleDiscovery, RulePlace } from './types.js';

/** A file this large is no rule (AGENTS.md-sized rules are cut at 20,000 characters anyway). */
const MAX_FILE_BYTES = 256 * 1024;

/** Other tools' rule files, read as they are, in each folder from the working folder up to the repository root. */
const COMPATIBLE_FILES = ['.clinerules', '.cursorrules', '.windsurfrules', 'CLAUDE.md', 'GEMINI.md'];

/** The files repositories often keep as a link to or copy of the AGENTS.md beside them. */
const STAND_INS = new Set(['CLAUDE.md', 'GEMINI.md']);

/** What a rule file held when last read, by path: a file that has not changed is not parsed again. */
export type RuleFileCache = Map<string, { stamp: string; content: RuleContent | Error }>;

export interface RulePlaces {
  workspace: string;
  /** Where the session works; compatible files are read from here up to the repository root. Default: the workspace. */
  cwd?: string;
  /** `$LATHE_HOME`: the user's own rules are in its `rules/` folder. */
  documentsRoot: string;
}

/**
 * Every rule file, in prompt order: the user's (`$LATHE_HOME/rules/*.md`), the workspace's
 * (`.agents/rules/*.md`), then other tools' files (`.clinerules` file or folder, `.cursorrules`,
 * `.windsurfrules`, `CLAUDE.md`, `GEMINI.md`) folder by folder, nearest first as AGENTS.md is.
 * Within a place, files go by name. A file that cannot be used is a warning, never a silent drop.
 */
export function discoverRules(places: RulePlaces, cache: RuleFileCache = new Map()): RuleDiscovery {
  const { workspace, documentsRoot } = places;
  const cwd = places.cwd ?? workspace;
  const found: RuleDiscovery = { rules: [], warnings: [] };
  const nameOf = (path: string, place: RulePlace) => {
    if (place === 'user') return path;
    const shown = relative(workspace, path);
    return shown === '' ? basename(path) : shown;
  };
  const add = (path: string, place: RulePlace) => {
    const name = nameOf(path, place);
    try {
      const content = readCached(path, cache);
      const same = STAND_INS.has(basename(path)) ? sameAsAgentsFile(path, content.text) : {};
      found.rules.push({ name, path, place, ...content, ...same });
    } catch (error) {
      found.warnings.push(problemLine(name, error));
    }
  };
  for (const file of markdownFiles(join(documentsRoot, 'rules'))) add(file, 'user');
  for (const file of markdownFiles(join(workspace, '.agents', 'rules'))) add(file, 'workspace');
  const root = repoRoot(cwd) ?? cwd;
  for (let dir = cwd; ; dir = dirname(dir)) {
    for (const name of COMPATIBLE_FILES) {
      const path = join(dir, name);
      const kind = entryKind(path);
      if (kind === 'file') add(path, 'compatible');
      // Cline's folder form: every rule file at its top (its workflows/ folder holds no rules).
      else if (kind === 'folder') for (const file of markdownFiles(path, true)) add(file, 'compatible');
    }
    if (dir === root || dirname(dir) === dir) break;
  }
  return found;
}

/** The `.md` (and, `withText`, `.txt`) files of a folder, by name; none when there is no such folder. */
function markdownFiles(folder: string, withText = false): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  const extensions = withText ? ['.md', '.txt'] : ['.md'];
  return entries
    .filter((entry) => extensions.includes(extname(entry.name).toLowerCase()))
    .filter(
      (entry) => entry.isFile() || (entry.isSymbolicLink() && entryKind(join(folder, entry.name)) === 'file'),
    )
    .map((entry) => entry.name)
    .sort()
    .map((name) => join(folder, name));
}

function entryKind(path: string): 'file' | 'folder' | undefined {
  try {
    const stat = statSync(path);
    return stat.isFile() ? 'file' : stat.isDirectory() ? 'folder' : undefined;
  } catch {
    return undefined;
  }
}

/** A rule file's content, parsed again only when its size or modification time changed. */
function readCached(path: string, cache: RuleFileCache): RuleContent {
  const { size, mtimeMs, ino } = statSync(path);
  // An atomic rewrite (new_rule's) is a new file: its inode changes even within the same millisecond.
  const stamp = `${size}:${mtimeMs}:${ino}`;
  let entry = cache.get(path);
  if (entry?.stamp !== stamp) {
    entry = { stamp, content: readFresh(path, size) };
    cache.set(path, entry);
  }
  if (entry.content instanceof Error) throw entry.content;
  return entry.content;
}

function readFresh(path: string, size: number): RuleContent | Error {
  try {
    if (size > MAX_FILE_BYTES) throw new FieldError('file', `is larger than ${MAX_FILE_BYTES / 1024} KB`);
    return readRule(readFileSync(path, 'utf8'));
  } catch (error) {
    return error as Error;
  }
}

/**
 * A CLAUDE.md or GEMINI.md that is the AGENTS.md beside it (a link to it, or a copy), as many
 * repositories keep them: AGENTS.md is already in the prompt.
 */
function sameAsAgentsFile(path: string, text: string): { sameAs?: string } {
  const agents = join(dirname(path), 'AGENTS.md');
  if (agents === path) return {};
  try {
    if (realpathSync(agents) === realpathSync(path)) return { sameAs: agents };
    return readFileSync(agents, 'utf8').trim() === text ? { sameAs: agents } : {};
  } catch {
    return {};
  }
}
