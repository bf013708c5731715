import type { SkillInstructions } from '../../config/skills/instructions.js';
import type { Skill } from '../../config/skills/types.js';

/** The session's skills, for load_skill. */
export interface SkillAccess {
  /** Every skill found (the model may load those that are `modelInvocable`). */
  readonly all: readonly Skill[];
  find(name: string): Skill | undefined;
  /** The skill's instructions as they are on disk now, and its files. */
  read(skill: Skill): Promise<SkillInstructions>;
  /**
   * Pre-approves the skill's `allowed-tools`, and reading its own folder, in the permission
   * engine of the call; `release` takes exactly those rules out again.
   */
  grant(skill: Skill): { release: () => void; granted: string[]; problems: string[] };
}
