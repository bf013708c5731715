import type { SkillCatalog } from '../../config/skills/catalog.js';
import { shownPath } from '../../config/skills/discover.js';
import type { Line } from '../render/style.js';
import { row } from './status_panel.js';

const GRAY = { color: 'muted' } as const;
const YELLOW = { color: 'warning' } as const;
const WIDTH = 26;

const short = (text: string, max = 80) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** `/skills`: each skill, who may start it, what it pre-approves, where it lives and its warnings. */
export function skillsPanel(skills: SkillCatalog, workspace: string): { title: string; lines: Line[] } {
  if (skills.all.length === 0)
    return {
      title:
        'No skills here. A skill is a folder with SKILL.md in .agents/skills/, $LATHE_HOME/skills/, .claude/skills/ or ~/.claude/skills/.',
      lines: [],
    };
  const lines: Line[] = [];
  for (const skill of skills.all) {
    lines.push(row(skill.userInvocable ? `/${skill.name}` : skill.name, short(skill.description), WIDTH));
    const facts = [
      skill.modelInvocable ? 'the model may load it' : 'only you can start it',
      ...(skill.allowedTools.length > 0 ? [`pre-approves ${skill.allowedTools.join(', ')}`] : []),
      shownPath(skill.path, workspace),
    ];
    lines.push([{ text: `  ${' '.repeat(WIDTH)} ${facts.join(' · ')}`, style: GRAY }]);
    for (const warning of skill.warnings)
      lines.push([
        { text: `  ${' '.repeat(WIDTH)} ⚠ ${warning.slice(warning.indexOf(': ') + 2)}`, style: YELLOW },
      ]);
  }
  return { title: `Skills (${skills.all.length})`, lines };
}
