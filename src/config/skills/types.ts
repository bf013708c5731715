/** Where a skill was found, in precedence order: the first place holding a name wins it. */
export type SkillPlace = 'workspace' | 'workspace-claude' | 'user' | 'user-claude';

/** A skill in the open Agent Skills format: a folder with SKILL.md and, optionally, resources. */
export interface Skill {
  /** `[a-z0-9-]`, at most 64 characters; the folder's name unless the file names another. */
  name: string;
  /** What it does and when to use it: what the model sees of it before loading it. */
  description: string;
  /** The SKILL.md file, absolute. */
  path: string;
  /** The skill's folder, absolute: its scripts/, references/ and assets/ live here. */
  folder: string;
  place: SkillPlace;
  license?: string;
  compatibility?: string;
  metadata?: Record<string, string>;
  /**
   * `allowed-tools` as lathe permission rules (`execute_command(git diff:*)`, `read_file`):
   * pre-approved while the skill is active.
   */
  allowedTools: string[];
  /** The user may run it as `/<name>` (frontmatter `user-invocable`, default true). */
  userInvocable: boolean;
  /** The model sees it and may load it (false with `disable-model-invocation: true`). */
  modelInvocable: boolean;
  /** What `/<name>` takes, shown in completion (`argument-hint`). */
  argumentHint?: string;
  /** This skill's problems, each naming the file and the field (also in the discovery's warnings). */
  warnings: string[];
}

export interface SkillDiscoveryOptions {
  workspace: string;
  documentsRoot: string;
  /** The user's home, for `~/.claude/skills/` (default: the OS's). */
  home?: string;
  /** Read the workspace's skills: only when the user trusts the folder (they pre-approve tools). */
  includeWorkspace: boolean;
  /** Whether a lathe tool has this name, to check `allowed-tools`; without it names are not checked. */
  isTool?: (name: string) => boolean;
}

export interface SkillDiscovery {
  skills: Skill[];
  /** Every problem found, one line each naming the file and the field; never a silent drop. */
  warnings: string[];
}
