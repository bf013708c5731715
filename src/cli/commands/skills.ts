import { discoverSkills, type Skill, shownPath } from '../../config/skills/index.js';
import { isFolderTrusted } from '../../config/trust.js';
import { runtimePlaces } from '../../runtime/configuration.js';
import { findTool } from '../../tool/pool.js';
import { builtinTools } from '../../tools/index.js';

export interface SkillsOptions {
  cwd?: string;
  /** `--trust`: read the workspace's skills though the folder is not trusted. */
  trust?: boolean;
  json?: boolean;
}

/** Who may start a skill: the model (it is listed for it), the user (`/<name>`), or both. */
function invocation(skill: Skill): string {
  const who = [
    skill.modelInvocable ? 'the model' : undefined,
    skill.userInvocable ? `/${skill.name}` : undefined,
  ];
  const used = who.filter((w) => w !== undefined);
  return used.length > 0 ? `used by: ${used.join(', ')}` : 'used by: no one (both switches are off)';
}

/**
 * `lathe skills list [--json]`: every skill found, in precedence order, each with where it comes
 * from and its warnings, then the problems that kept a folder from being a skill. The workspace's
 * skills count only when the folder is trusted (or with --trust), as for a run.
 */
export function skillsCommand(opts: SkillsOptions): number {
  const { workspace, documentsRoot } = runtimePlaces({ cwd: opts.cwd });
  const includeWorkspace = opts.trust === true || isFolderTrusted(documentsRoot, workspace);
  const tools = builtinTools();
  const { skills, warnings } = discoverSkills({
    workspace,
    documentsRoot,
    includeWorkspace,
    isTool: (name) => findTool(tools, name) !== undefined,
  });
  const ownWarnings = new Set(skills.flatMap((skill) => skill.warnings));
  const others = warnings.filter((warning) => !ownWarnings.has(warning));
  if (opts.json) {
    process.stdout.write(`${JSON.stringify({ skills, warnings }, null, 2)}\n`);
    return 0;
  }
  const lines: string[] = [];
  for (const skill of skills) {
    const file = shownPath(skill.path, workspace);
    lines.push(`${skill.name}  (${file})`);
    lines.push(`  ${skill.description}`);
    const details = [invocation(skill)];
    if (skill.allowedTools.length > 0) details.push(`allowed-tools: ${skill.allowedTools.join(', ')}`);
    if (skill.license) details.push(`license: ${skill.license}`);
    lines.push(`  ${details.join(' · ')}`);
    // The file is named just above.
    for (const warning of skill.warnings) lines.push(`  warning: ${warning.replace(`${file}: `, '')}`);
  }
  if (others.length > 0) lines.push('', 'Not loaded or waiting:', ...others.map((warning) => `  ${warning}`));
  const warned = skills.filter((skill) => skill.warnings.length > 0).length;
  lines.push(
    '',
    `${skills.length} skill${skills.length === 1 ? '' : 's'} (${warned} with warnings), ${others.length} other problem${others.length === 1 ? '' : 's'}`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
