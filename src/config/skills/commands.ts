import { pathInside } from '../../util/inside_folder.js';
import type { PromptCommand } from '../commands/prompt_command.js';
import { skillDocument, withArguments } from './document.js';
import { readSkillInstructions } from './instructions.js';
import type { Skill } from './types.js';

/**
 * The skills the user may run as `/<name> [args]` (frontmatter `user-invocable`, default true),
 * as prompt commands: the prompt is the skill's instructions, with the arguments, and its
 * `allowed-tools` are granted for that prompt.
 */
export function skillCommands(skills: readonly Skill[]): PromptCommand[] {
  return skills
    .filter((skill) => skill.userInvocable)
    .map((skill) => ({
      name: skill.name,
      kind: 'skill',
      description: skill.description,
      ...(skill.argumentHint ? { argumentHint: skill.argumentHint } : {}),
      path: skill.path,
      async expand(args, context) {
        const loaded = await readSkillInstructions(skill);
        const show = (path: string) => pathInside(path, context.workspace) ?? path;
        const body = withArguments(loaded.body, args.trim());
        const text = `Use the skill "${skill.name}" for this request; its instructions follow.\n\n${skillDocument(skill, { ...loaded, body }, show)}`;
        return { text, allowedTools: [...skill.allowedTools] };
      },
    }));
}
