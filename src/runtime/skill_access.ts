import type { SkillCatalog } from '../config/skills/catalog.js';
import { readSkillInstructions } from '../config/skills/instructions.js';
import type { Skill } from '../config/skills/types.js';
import { type GrantingEngine, grantTools } from '../permission/grants.js';
import type { SkillAccess } from '../tool/context/skills.js';

/** A folder as a path rule's pattern can name it: not when its path holds glob characters. */
const folderPattern = (folder: string) => (/[*?[\]{}()!]/.test(folder) ? undefined : `${folder}/**`);

/** What a skill pre-approves while it is active: its allowed-tools, and reading its own files. */
export function skillGrants(skill: Skill): string[] {
  const folder = folderPattern(skill.folder);
  const rules = [...skill.allowedTools];
  if (folder) rules.push(`read_file(${folder})`);
  return rules;
}

/** The skills as the tools of one runtime reach them, granting in that runtime's permission engine. */
export function skillAccess(catalog: SkillCatalog, permissions: GrantingEngine): SkillAccess {
  return {
    all: catalog.all,
    find: (name) => catalog.find(name),
    read: (skill) => readSkillInstructions(skill),
    grant(skill) {
      const problems: string[] = [];
      const rules = skillGrants(skill);
      const release = grantTools(permissions, rules, `skill ${skill.name}`, (problem) =>
        problems.push(problem),
      );
      const granted = rules.filter((rule) => !problems.some((problem) => problem.includes(rule)));
      return { release, granted, problems };
    },
  };
}
