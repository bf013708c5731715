export type Profile = 'standard' | 'lite' | 'simple';
export type Mode = 'plan' | 'act';
export type AgentKind = 'main' | 'subagent' | 'task';
export type RuleAction = 'allow' | 'ask' | 'deny';

export const PROFILES: readonly Profile[] = ['standard', 'lite', 'simple'];
export const MODES: readonly Mode[] = ['plan', 'act'];

/** The approval categories of SPEC §2, as settings keys. */
export const APPROVAL_CATEGORIES = [
  'read',
  'readOutside',
  'edit',
  'editOutside',
  'executeSafe',
  'executeAll',
  'browser',
  'web',
  'mcp',
  'subagents',
  'todo',
] as const;
export type ApprovalCategory = (typeof APPROVAL_CATEGORIES)[number];

/** One settings file (global, workspace) or the command line, as written. */
export interface SettingsLayer {
  model?: string;
  /** Overrides the model's context window (tokens), e.g. for a local model served with a small one. */
  contextWindow?: number;
  profile?: Profile;
  mode?: Mode;
  strictPlanMode?: boolean;
  features?: string[] | Record<string, boolean>;
  approvals?: Partial<Record<ApprovalCategory, RuleAction>>;
  permissions?: Partial<Record<RuleAction, string[]>>;
  sandbox?: { mode?: 'read-only' | 'workspace-write' | 'off'; network?: boolean };
  /** Shell commands: `maxOutputBytes` caps the output saved per command (it is stopped there). */
  commands?: { maxOutputBytes?: number };
  [key: string]: unknown;
}
