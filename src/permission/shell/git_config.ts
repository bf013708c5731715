import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** One `key = value` of a git config file; `section` and `key` lower-cased, `subsection` as written. */
export interface GitConfigEntry {
  section: string;
  subsection?: string;
  key: string;
  value: string;
}

/**
 * Reads a git config file as git does, closely enough to find the keys that name programs. A line
 * it does not understand (continuations, odd quoting) makes it give up: undefined.
 */
export function parseGitConfig(text: string): GitConfigEntry[] | undefined {
  const entries: GitConfigEntry[] = [];
  let section: string | undefined;
  let subsection: string | undefined;
  for (const raw of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    let line = raw.trim();
    if (line.endsWith('\\')) return undefined;
    if (line.startsWith('[')) {
      const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
      if (!header) return undefined;
      const dotted = header[1].split('.');
      section = dotted[0].toLowerCase();
      subsection = header[2] ?? (dotted.length > 1 ? dotted.slice(1).join('.') : undefined);
      line = line.slice(header[0].length).trim();
    }
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/.exec(line);
    if (!entry || section === undefined) return undefined;
    const value = entry[2] === undefined ? 'true' : configValue(entry[2]);
    if (value === undefined) return undefined;
    entries.push({ section, subsection, key: entry[1].toLowerCase(), value });
  }
  return entries;
}

/** A value without its quotes and trailing comment. */
function configValue(text: string): string | undefined {
  let value = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      value += text[i + 1] ?? '';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '#' || c === ';')) break;
    else value += c;
  }
  return quoted ? undefined : value.trim();
}

const FALSE_VALUES = new Set(['false', 'no', 'off', '0']);
const BOOLEAN_VALUES = new Set([...FALSE_VALUES, 'true', 'yes', 'on', '1', '']);

/** Keys (`section.key`, or `section.*.key` with a subsection) whose value git runs as a program or follows elsewhere. */
const PROGRAM_KEYS = new Set([
  'core.fsmonitor',
  'core.hookspath',
  'core.pager',
  'core.editor',
  'core.sshcommand',
  'core.gitproxy',
  'core.askpass',
  'core.alternaterefscommand',
  'core.worktree',
  'diff.external',
  'diff.*.command',
  'diff.*.textconv',
  'merge.*.driver',
  'include.path',
  'includeif.*.path',
  'gpg.program',
  'gpg.*.program',
  'credential.helper',
  'credential.*.helper',
  'sequence.editor',
  'interactive.difffilter',
  'uploadpack.packobjectshook',
  'remote.*.uploadpack',
  'remote.*.receivepack',
]);

/** Why this config entry lets git run a program (or read another config), or undefined. */
export function programSetting(entry: GitConfigEntry): string | undefined {
  const name =
    entry.subsection === undefined ? `${entry.section}.${entry.key}` : `${entry.section}.*.${entry.key}`;
  const shown = entry.subsection === undefined ? name : `${entry.section}.${entry.subsection}.${entry.key}`;
  if (name === 'core.fsmonitor' && FALSE_VALUES.has(entry.value.toLowerCase())) return undefined;
  if (PROGRAM_KEYS.has(name)) return shown;
  if (entry.section === 'filter' && entry.subsection !== undefined) return shown;
  if (entry.section === 'alias' && entry.value.startsWith('!')) return shown;
  if (entry.section === 'pager' && !BOOLEAN_VALUES.has(entry.value.toLowerCase())) return shown;
  return undefined;
}

/** The config files git reads for a repository: its own, and the common one of a linked worktree. */
export function configFiles(gitDir: string): string[] {
  const files = [join(gitDir, 'config'), join(gitDir, 'config.worktree')];
  try {
    const common = resolve(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim());
    files.push(join(common, 'config'), join(common, 'config.worktree'));
  } catch {
    // not a linked worktree
  }
  return files;
}

/** Why the repository's config makes git run something of the repository's choosing, or undefined. */
export function repositoryConfigProblem(gitDir: string): string | undefined {
  for (const file of configFiles(gitDir)) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      return `git's config ${file} cannot be read`;
    }
    const entries = parseGitConfig(text);
    if (!entries) return `git's config ${file} is not understood`;
    const found = entries.map(programSetting).find((setting) => setting !== undefined);
    if (found) return `the repository's config (${file}) sets ${found}, which can run a program`;
  }
  return undefined;
}
