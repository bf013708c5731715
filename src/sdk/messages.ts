import type { AgentOutcomeKind, RunLimit } from '../agent/events.js';
import type { ApprovalCategory, Mode, Profile } from '../config/types.js';
import type { DeniedCall } from './denials.js';
import type { SdkEventMessage, SdkUsage } from './records.js';

export type { SdkEventMessage, SdkPermissionDenial, SdkUsage } from './records.js';

/**
 * What `query()` yields: the records `lathe -p --output-format stream-json` prints, one per
 * line there, typed here (docs/headless.md describes each field). The init record comes first,
 * the result last (one per prompt of a conversation).
 */
export type SdkMessage = SdkInitMessage | SdkEventMessage | SdkResultMessage;

/** The result's `subtype`, as Claude Code's headless runs name it. */
export type ResultSubtype = 'success' | 'error_max_turns' | 'error_max_budget_usd' | 'error_during_execution';

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

/** A message of a conversation the program feeds (`prompt` as an async iterable). */
export interface SdkUserMessage {
  type: 'user';
  text: string;
  /** Image files (paths) or ready image blocks sent with the text. */
  images?: Array<string | { mediaType: string; data: string }>;
}
