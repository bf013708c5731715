import type { Mode } from '../config/types.js';
import type { AgentInteraction } from '../tool/context/agent.js';
import type { ToolExecution } from '../tool/executor.js';
import type { ToolCall } from '../tool/run_call.js';
import type { PoolConditions, Tool, ToolResult } from '../tool/types.js';

/** What the agent needs of a runtime (structurally: this layer does not import the runtime). */
export interface AgentRuntime {
  readonly cwd: string;
  readonly workspace: string;
  readonly sessionId: string;
  readonly conditions: PoolConditions;
  /** The tools offered now, in pool order; it follows the mode. */
  readonly pool: readonly Tool[];
  setMode(mode: Mode): void;
  /** A streaming execution for one model message: calls are added as they arrive. */
  createExecution(options: {
    interaction?: AgentInteraction;
    signal?: AbortSignal;
    onStart?: (call: ToolCall) => void;
    onResult?: (call: ToolCall, result: ToolResult) => void;
  }): ToolExecution;
}
