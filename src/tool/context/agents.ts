/** Which child an event or an approval comes from. */
export interface SubagentTag {
  id: string;
  name: string;
  type: string;
  depth: number;
}

/** How a child agent ended, or that it is still running (a background child). */
export type SubagentStatus = 'running' | 'completed' | 'failed' | 'budget_exhausted' | 'interrupted';

/** One child to run, as use_subagent / use_subagents take it. */
export interface SubagentRequest {
  /** A few words for the UI and the roster (the child's name). */
  description: string;
  prompt: string;
  /** An agent type: built-in (`general`, `explore`, `plan`) or custom; default `general`. */
  type?: string;
  /** Start from a copy of the parent's conversation instead of an empty one. */
  fork?: boolean;
  /** Return the child's id at once; the child runs on (task_get / task_output read it). */
  background?: boolean;
  /** The id of a finished or interrupted child to continue. */
  resume?: string;
  /** Run in a new git worktree of its own. */
  isolation?: 'worktree';
  /** A model other than the parent's. */
  model?: string;
}

/** What a child spent. */
export interface SubagentUsage {
  inputTokens: number;
  outputTokens: number;
  toolCalls: number;
  ms: number;
  /** Dollars at the model's published prices; undefined when they are not known. */
  costUsd?: number;
}

/** What the parent's tool result carries for one child. */
export interface SubagentReport {
  id: string;
  name: string;
  type: string;
  status: SubagentStatus;
  /** The child's final text (or what it had said when it stopped), or why it failed. */
  text: string;
  usage: SubagentUsage;
  sessionId: string;
  /** The child's session log on disk. */
  logPath: string;
  /** The worktree a child with `isolation: "worktree"` worked in, and what it left there. */
  worktree?: { branch: string; dir: string; diffstat?: string };
}

/** An agent type as the tool's description and errors list it. */
export interface AgentTypeSummary {
  name: string;
  description: string;
  /** Its children get only tools that change nothing. */
  readOnly?: boolean;
}

/** What the subagent tools need of the agent running them; absent inside a child at the depth limit. */
export interface SubagentAccess {
  /** Every type a child can be, built-in first. */
  types(): AgentTypeSummary[];
  /** Runs children in parallel (at most `agents.concurrency` at once); reports in request order. */
  run(requests: readonly SubagentRequest[], signal: AbortSignal): Promise<SubagentReport[]>;
  /** How deep this agent is (0 for the user's agent) and the deepest a child may be. */
  readonly depth: number;
  readonly maxDepth: number;
}
