/** Where a rule was found: the user's own rules, the workspace's `.agents/rules/`, or another tool's file. */
export type RulePlace = 'user' | 'workspace' | 'compatible';

/** One rule file: instructions that join the system prompt, always or once a matching file is seen. */
export interface Rule {
  /**
   * How `/rules` and `rules.disabled` name it: the path relative to the workspace
   * (`.agents/rules/testing.md`, `CLAUDE.md`, `../GEMINI.md`), or the full path of a user rule.
   */
  name: string;
  /** The file's absolute path. */
  path: string;
  place: RulePlace;
  /** The instructions, without frontmatter. */
  text: string;
  /** Globs (relative to the workspace) that make the rule conditional; absent: always. */
  paths?: string[];
  /** The AGENTS.md this file repeats (the same file or the same text): it is not added twice. */
  sameAs?: string;
}

export interface RuleDiscovery {
  rules: Rule[];
  /** One line per file that could not be used, naming the file and the field. */
  warnings: string[];
}

/** Why a rule is, or is not, in the system prompt now. */
export type RuleState =
  | { kind: 'always' }
  | { kind: 'matched'; file: string }
  | { kind: 'waiting'; globs: string[] }
  | { kind: 'disabled' }
  | { kind: 'duplicate'; of: string };

export interface RuleStatus {
  rule: Rule;
  state: RuleState;
  /** Whether it is in the system prompt now. */
  active: boolean;
}

/** The rules of a session as the agent sees them (structurally; the runtime's `RuleSet`). */
export interface SessionRules {
  /** Reads the rule files again (a rule written during the session joins at the next prompt). */
  refresh(): void;
  /** The rules in the system prompt now, in order. */
  active(): readonly Rule[];
}
