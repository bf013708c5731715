import { z } from 'zod';
import { skillDocument } from '../../config/skills/document.js';
import { buildTool } from '../../tool/build_tool.js';
import { touchesNothing } from '../../tool/declared_subject.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import type { ToolContext } from '../../tool/types.js';
import { displayPath } from '../shared/paths.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    name: z.string().min(1).describe("The skill's name, as the system prompt lists it"),
  }),
);

/** Why the model cannot load the skill of this name, or undefined when it can. */
function whyNot(name: string, ctx: Pick<ToolContext, 'skills'>): string | undefined {
  const loadable = (ctx.skills?.all ?? []).filter((skill) => skill.modelInvocable);
  if (loadable.length === 0) return 'There are no skills here to load.';
  const skill = ctx.skills?.find(name);
  if (skill && !skill.modelInvocable)
    return `The skill "${skill.name}" is only for the user to run (/${skill.name}); it is not loaded by the model.`;
  if (!skill) return `No skill is named "${name}". The skills: ${loadable.map((s) => s.name).join(', ')}.`;
  return undefined;
}

export const loadSkill = buildTool({
  name: 'load_skill',
  inputSchema,
  description:
    "Load a skill's full instructions by its name (the system prompt lists the skills and what each is for). " +
    'Load the matching skill before you start such a task, then follow its instructions. The result also lists the ' +
    'files the skill bundles (scripts, references, assets): read them with read_file when the instructions call ' +
    "for them. The tools the skill's allowed-tools name are pre-approved until the user's current request ends.",
  // Offered only when a skill exists (the system prompt lists them).
  availability: { profiles: ['standard'], requires: ['skills'] },
  kind: 'read',
  // Touches only the session's skills, listed to the model already: nothing the permission engine judges.
  permissionSubject: touchesNothing,
  example: { input: { name: 'pdf-tools' } },
  userFacingName: () => 'Skill',
  detail: (input) => input.name,
  // lathe's own fact: it reads a skill (its pre-approvals are lathe's own state, and Plan mode still asks for changes), so Plan mode lets it run.
  planModeAllowed: true,
  validateInput: (input, ctx) => whyNot(input.name, ctx),
  async call(input, ctx) {
    const problem = whyNot(input.name, ctx);
    const skills = ctx.skills;
    const skill = skills?.find(input.name);
    if (problem || !skills || !skill)
      return { text: problem ?? 'There are no skills here to load.', isError: true };
    const loaded = await skills.read(skill);
    const parts = [skillDocument(skill, loaded, (path) => displayPath(ctx, path))];
    let granted: string[] = [];
    if (ctx.interaction) {
      // Granted for the user's prompt that is running: the agent takes the rules out when it ends.
      const grant = skills.grant(skill);
      ctx.interaction.onPromptEnd(grant.release);
      granted = skill.allowedTools.filter((rule) => grant.granted.includes(rule));
      if (granted.length > 0)
        parts.push(`Pre-approved until the user's current request ends: ${granted.join(', ')}.`);
      for (const problem of grant.problems) parts.push(`Not pre-approved: ${problem}.`);
    } else if (skill.allowedTools.length > 0) {
      parts.push(
        `Its allowed-tools (${skill.allowedTools.join(', ')}) are pre-approved only inside an agent's prompt.`,
      );
    }
    return {
      text: parts.join('\n\n'),
      data: {
        name: skill.name,
        path: displayPath(ctx, skill.path),
        resources: loaded.resources.map((path) => displayPath(ctx, path)),
        preApproved: granted,
      },
    };
  },
});
