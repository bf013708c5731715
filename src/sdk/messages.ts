import type { AgentOutcomeKind, RunLimit } from '../agent/events.js';
import type { ApprovalCategory, Mode, Profile } from '../config/types.js';
import type { TodoItem } from '../tool/events.js';
import type { DeniedCall } from './denials.js';

/**
 * What `query()` yields: the records `lathe -p --output-format stream-json` prints, one per
 * line there, typed here (docs/headless.md describes each field). The init record comes first,
 * the result last (one per prompt of a conversation).
 */
export type SdkMessage = SdkInitMessage | SdkEventMessage | SdkResultMessage;

/** The result's `subtype`, as Claude Code's headless runs name it. */
export type ResultSubtype = 'success' | 'error_max_turns' | 'error_max_budget_usd' | 'error_during_execution';

export interface SdkUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

export interface SdkInitMessage {
  type: 'system';
  subtype: 'init';
  session_id: string;
  model: string;
  cwd: string;
  profile: Profile;
  mode: Mode;
  permission_mode: 'default' | 'approve' | 'yolo';
  approved_categories: ApprovalCategory[] | 'all';
  tools: string[];
  mcp_servers: Array<{ name: string; status: string; error?: string }>;
  /** The custom commands, workflows and skills a prompt can start with `/name`. */
  slash_commands: Array<{ name: string; description: string; argument_hint?: string }>;
  /** The model's context window in tokens, or null when not known. */
  context_window: number | null;
}

export interface SdkResultMessage {
  type: 'result';
  /** Claude Code's values, for scripts written for it; `outcome` is lathe's own reason. */
  subtype: ResultSubtype;
  /** How the run ended, finer than `subtype`. */
  outcome: AgentOutcomeKind;
  is_error: boolean;
  result: string;
  session_id: string;
  num_turns: number;
  duration_ms: number;
  usage: SdkUsage & { children: SdkUsage & { cost_usd: number | null } };
  total_cost_usd: number | null;
  permission_denials: DeniedCall[];
  /** The limit that ended the run (`max_turns`, `max_tokens`, `max_cost`): `name`, `used`, `max`. */
  limit?: RunLimit;
  /** With `jsonSchema`: the accepted object, or null when the run ended without one. */
  structured_output?: unknown;
}

export interface SdkPermissionDenial {
  reason: string;
  category?: ApprovalCategory;
  remedy?: string;
}

/** One event of the run, as stream-json prints it. */
export type SdkEventMessage =
  | { type: 'user_message'; text: string }
  | { type: 'request_start'; turn: number }
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; text: string }
  | { type: 'assistant_text'; text: string }
  | { type: 'tool_call'; id: string; name: string; input: unknown }
  | { type: 'tool_start'; id: string; name: string }
  | { type: 'tool_progress'; id: string; name: string; message: string }
  | {
      type: 'tool_result';
      id: string;
      name: string;
      is_error: boolean;
      text: string;
      saved_path?: string;
      image_count?: number;
      permission_denial?: SdkPermissionDenial;
    }
  /** `request_usage`: the request's own tokens; `total_usage`: the run's own totals so far. */
  | { type: 'usage'; request_usage: SdkUsage; total_usage: SdkUsage; context_tokens: number }
  | { type: 'retry'; attempt: number; delay_ms: number; message: string }
  | { type: 'mode_change'; mode: Mode }
  | { type: 'working'; message: string }
  | { type: 'phase_report'; phase: string; markdown: string }
  | { type: 'report'; title: string; markdown: string; path: string }
  | { type: 'plan'; markdown: string }
  | { type: 'todo'; items: TodoItem[] }
  | { type: 'question'; question: string; options?: string[]; answer: string }
  | { type: 'compaction'; summary: string; tokens_before: number }
  | { type: 'notice'; message: string }
  | {
      type: 'approval_request';
      id: string;
      tool: string;
      input_summary: string;
      reason: string;
      category?: ApprovalCategory;
    }
  | {
      type: 'approval_answer';
      id: string;
      tool: string;
      answer: 'allow' | 'deny' | 'interrupted';
      by: 'hook' | 'canUseTool' | 'user' | 'rule';
      reason?: string;
      input_changed?: boolean;
    }
  | {
      type: 'subagent';
      agent: { id: string; name: string; type: string; depth: number };
      event: SdkEventMessage | { type: 'done'; outcome: Record<string, unknown> };
    }
  | { type: 'error'; message: string };

/** A message of a conversation the program feeds (`prompt` as an async iterable). */
export interface SdkUserMessage {
  type: 'user';
  text: string;
  /** Image files (paths) or ready image blocks sent with the text. */
  images?: Array<string | { mediaType: string; data: string }>;
}
