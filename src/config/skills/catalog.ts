import type { Skill } from './types.js';

/** The skills of a session, found once at its start and shared by its agents. */
export class SkillCatalog {
  constructor(readonly all: readonly Skill[]) {}

  /** The skills the model sees and may load (not those with `disable-model-invocation`). */
  get forModel(): Skill[] {
    return this.all.filter((skill) => skill.modelInvocable);
  }

  find(name: string): Skill | undefined {
    return this.all.find((skill) => skill.name === name);
  }
}
