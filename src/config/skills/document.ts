import type { SkillInstructions } from './instructions.js';
import type { Skill } from './types.js';

/**
 * A loaded skill as the model reads it: its instructions in a tagged block, then the files it
 * bundles, each as `show` gives the path (relative to the workspace, else absolute), for read_file.
 */
export function skillDocument(
  skill: Skill,
  loaded: SkillInstructions,
  show: (path: string) => string,
): string {
  const parts = [`<skill name="${skill.name}" folder="${show(skill.folder)}">\n${loaded.body}\n</skill>`];
  if (loaded.resources.length > 0) {
    parts.push(
      [
        'Files of this skill (read them with read_file when the instructions call for them; paths in the instructions are relative to its folder):',
        ...loaded.resources.map((path) => `- ${show(path)}`),
        ...(loaded.truncated ? ['- … and more in its folder'] : []),
      ].join('\n'),
    );
  }
  return parts.join('\n\n');
}

/** A skill's text with the arguments of `/<name> args`: in place of `$ARGUMENTS`, else after it. */
export function withArguments(body: string, args: string): string {
  if (body.includes('$ARGUMENTS')) return body.replaceAll('$ARGUMENTS', args);
  return args ? `${body}\n\nArguments: ${args}` : body;
}
