import type { Mode } from '../config/types.js';
import type { TokenUsage } from '../provider/prices.js';
import type { SubagentTag } from '../tool/context/agents.js';
import type { ToolEvent } from '../tool/events.js';
import type { ToolResult } from '../tool/types.js';
import type { RunLimit } from './run_limits.js';

export type { RunLimit, SubagentTag, ToolEvent };

/** Tokens spent: every input token, output, and the input read from and written to the cache. */
export type Usage = TokenUsage;

export type AgentOutcomeKind =
  | 'completed'
  | 'answered'
  | 'final_text'
  | 'stopped'
  | 'max_turns'
  | 'max_tokens'
  | 'max_cost'
  | 'aborted'
  | 'error';

export interface AgentOutcome {
  kind: AgentOutcomeKind;
  /** The result, the answer, the final text or the error message. */
  text: string;
  usage: Usage;
  /** Dollars at the model's published prices; undefined when they are not known. */
  costUsd?: number;
  turns: number;
  /** The object structured_output accepted (headless `--json-schema`). */
  structuredOutput?: unknown;
  /** The limit that ended the run (`max_turns`, `max_tokens`, `max_cost`). */
  limit?: RunLimit;
}

/** Everything a client (terminal UI, headless printer, session log, tests) may render. */
export type AgentEvent =
  | ToolEvent
  /** `queued`: typed while a turn ran, and sent after it (the UI's queue). */
  | { type: 'user_message'; text: string; queued?: boolean }
  | { type: 'request_start'; turn: number }
  | { type: 'text_delta'; text: string }
  /** A piece of the model's reasoning, when the provider streams it (effort / thinking on). */
  | { type: 'thinking_delta'; text: string }
  | { type: 'assistant_text'; text: string }
  | { type: 'tool_call'; id: string; name: string; input: unknown }
  | { type: 'tool_start'; id: string; name: string }
  /** A running call's progress (an MCP server's progress notification, a monitor's line). */
  | { type: 'tool_progress'; id: string; name: string; message: string }
  | { type: 'tool_result'; id: string; name: string; result: ToolResult }
  /** `request`: this request's own tokens; `usage`: the run's own totals so far. */
  | { type: 'usage'; request: Usage; usage: Usage; contextTokens: number; costUsd?: number }
  | { type: 'retry'; attempt: number; delayMs: number; message: string }
  | { type: 'mode_change'; mode: Mode }
  | { type: 'question'; question: string; options?: string[]; answer: string }
  | { type: 'compaction'; summary: string; before: number }
  | { type: 'notice'; message: string }
  | { type: 'error'; message: string }
  | { type: 'done'; outcome: AgentOutcome }
  /** An event of a child agent, tagged with the child (its own events stream through its parent). */
  | { type: 'subagent'; child: SubagentTag; event: AgentEvent };

export const emptyUsage = (): Usage => ({
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
});
