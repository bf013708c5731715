import type { Mode } from '../types.js';

/** Where an agent type was defined: built in, lathe's own files, or another tool's files read for compatibility. */
export type AgentOrigin = 'built-in' | 'lathe' | 'user' | 'claude' | 'gemini' | 'opencode' | 'codex';

/**
 * A kind of child agent the subagent tools can start. Every field but the name, description and
 * source is optional: what a type leaves out, the child takes from its parent (the parent's
 * model, the tools a child may have).
 */
export interface AgentType {
  name: string;
  /** When to use it: the model reads this in the tool's `type` parameter. */
  description: string;
  /** The child's own instructions (the body of its file). */
  prompt?: string;
  /** Only these tools (lathe names); absent: every tool a child may have. */
  tools?: string[];
  /** Never these tools (lathe names), whatever `tools` says. */
  disallowedTools?: string[];
  /**
   * `provider/model`; `small` for the provider's small fast model (the parent's model when it has
   * none); absent for the parent's model.
   */
  model?: string;
  /** The mode the child starts in. */
  mode?: Mode;
  maxTurns?: number;
  isolation?: 'worktree';
  /** Only tools whose declaration says they change nothing. */
  readOnly?: boolean;
  /** `built-in`, or the file the type was read from. */
  source: string;
  origin: AgentOrigin;
}

export interface DiscoveryOptions {
  workspace: string;
  /** `$LATHE_HOME`: its `agents/` folder holds the user's own types. */
  documentsRoot: string;
  /** Read the workspace's files: only when the user trusts the folder. */
  includeWorkspace: boolean;
}

export interface Discovery {
  /** Built-ins first, then custom types in precedence order. */
  types: AgentType[];
  /** One line each: the file, the field and what was done about it. */
  warnings: string[];
}
