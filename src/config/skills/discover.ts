import { type Dirent, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathInside } from '../../util/inside_folder.js';
import { readSkillFolder } from './read_skill.js';
import type { Skill, SkillDiscovery, SkillDiscoveryOptions, SkillPlace } from './types.js';

interface Place {
  folder: string;
  place: SkillPlace;
  /** In the workspace: read only when the user trusts it. */
  inWorkspace: boolean;
}

/** Where skills live, the first winning a name: the workspace's, then the user's; lathe's folders before Claude Code's. */
export function skillPlaces(
  options: Pick<SkillDiscoveryOptions, 'workspace' | 'documentsRoot' | 'home'>,
): Place[] {
  const home = options.home ?? homedir();
  return [
    { folder: join(options.workspace, '.agents', 'skills'), place: 'workspace', inWorkspace: true },
    { folder: join(options.workspace, '.claude', 'skills'), place: 'workspace-claude', inWorkspace: true },
    { folder: join(options.documentsRoot, 'skills'), place: 'user', inWorkspace: false },
    { folder: join(home, '.claude', 'skills'), place: 'user-claude', inWorkspace: false },
  ];
}

/** A path as warnings show it: relative inside the workspace, `~/…` inside the home folder, else absolute. */
export function shownPath(path: string, workspace: string, home = homedir()): string {
  const inside = (root: string) => pathInside(path, root);
  const inWorkspace = inside(workspace);
  if (inWorkspace !== undefined) return inWorkspace;
  const inHome = inside(home);
  return inHome !== undefined ? `~/${inHome}` : path;
}

interface Entry {
  path: string;
  isFolder: boolean;
}

/** A place's entries, by name; dot entries and READMEs are not skills and pass unremarked. */
function entries(folder: string): Entry[] {
  let found: Dirent[];
  try {
    found = readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  return found
    .filter((entry) => !entry.name.startsWith('.') && !/^readme(\.md)?$/i.test(entry.name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((entry) => {
      const path = join(folder, entry.name);
      // Only a link needs a look at what it points to.
      return { path, isFolder: entry.isDirectory() || (entry.isSymbolicLink() && isFolder(path)) };
    });
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Every skill of the four places, in precedence order. Nothing is dropped unseen: a folder that
 * is no skill, a field with a problem and a name found twice (the first place wins) each give a
 * warning naming the file; the workspace's skills, when it is not trusted, one line saying they
 * wait for trust.
 */
export function discoverSkills(options: SkillDiscoveryOptions): SkillDiscovery {
  const home = options.home ?? homedir();
  const show = (path: string) => shownPath(path, options.workspace, home);
  const skills: Skill[] = [];
  const warnings: string[] = [];
  const byName = new Map<string, Skill>();
  const seen = new Set<string>();
  let waiting = 0;
  const waitingPlaces: string[] = [];
  for (const place of skillPlaces({ ...options, home })) {
    // The same folder twice (lathe started in the home folder) is read once.
    const key = resolve(place.folder);
    if (seen.has(key)) continue;
    seen.add(key);
    const found = entries(place.folder);
    if (place.inWorkspace && !options.includeWorkspace) {
      const folders = found.filter((entry) => entry.isFolder).length;
      if (folders > 0) {
        waiting += folders;
        waitingPlaces.push(show(place.folder));
      }
      continue;
    }
    for (const { path, isFolder } of found) {
      if (!isFolder) {
        if (path.endsWith('.md'))
          warnings.push(`${show(path)}: a skill is a folder holding SKILL.md: not loaded`);
        continue;
      }
      const read = readSkillFolder(path, { place: place.place, show, isTool: options.isTool });
      warnings.push(...read.warnings);
      if (!read.skill) continue;
      const winner = byName.get(read.skill.name);
      if (winner) {
        const line = `${show(read.skill.path)}: the skill "${read.skill.name}" is also in ${show(winner.path)}, which wins: not loaded`;
        warnings.push(line);
        continue;
      }
      byName.set(read.skill.name, read.skill);
      skills.push(read.skill);
    }
  }
  if (waiting > 0)
    warnings.push(
      `${waiting} workspace skill${waiting === 1 ? '' : 's'} (${waitingPlaces.join(', ')}) wait${waiting === 1 ? 's' : ''} for trust: run \`lathe trust\` or pass --trust`,
    );
  return { skills, warnings };
}
