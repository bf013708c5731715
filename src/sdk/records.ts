import type { AgentEvent, SubagentTag, Usage } from '../agent/events.js';
import type { ApprovalCategory } from '../config/types.js';
import type { ToolResult } from '../tool/types.js';

/**
 * The JSON lines of `--output-format stream-json`: each agent event as a record with snake_case
 * field names. The internal events use camelCase; scripts read one style, and docs/headless.md
 * documents exactly these shapes. Payloads that are data, not fields (a tool call's input, a
 * structured output), pass through as the model wrote them.
 */

export type JsonRecord = Record<string, unknown>;

export interface SdkUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

export interface SdkPermissionDenial {
  reason: string;
  category?: ApprovalCategory;
  remedy?: string;
}

/** `someName` → `some_name`, as `snakeCase` renames a key. */
type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

/** A value with every key renamed, however deep: what `withSnakeCaseKeys` returns. */
export type SnakeCaseKeys<T> = T extends readonly (infer Item)[]
  ? SnakeCaseKeys<Item>[]
  : T extends object
    ? { [K in keyof T as K extends string ? SnakeCase<K> : K]: SnakeCaseKeys<T[K]> }
    : T;

type ToolResultRecord = {
  is_error: boolean;
  text: string;
  saved_path?: string;
  image_count?: number;
  permission_denial?: SdkPermissionDenial;
};

/** The record of one kind of event: its keys renamed, but for the kinds `eventRecord` reshapes. */
type RecordOf<E extends AgentEvent> = E extends { type: 'done' }
  ? never
  : E extends { type: 'tool_result' }
    ? { type: 'tool_result'; id: string; name: string } & ToolResultRecord
    : E extends { type: 'usage' }
      ? { type: 'usage'; request_usage: SdkUsage; total_usage: SdkUsage; context_tokens: number }
      : E extends { type: 'compaction' }
        ? { type: 'compaction'; summary: string; tokens_before: number }
        : E extends { type: 'subagent' }
          ? SdkSubagentRecord
          : SnakeCaseKeys<E>;

/** A child's event, tagged with the child; its end is the child's outcome. */
export interface SdkSubagentRecord {
  type: 'subagent';
  agent: Pick<SubagentTag, 'id' | 'name' | 'type' | 'depth'>;
  event: SdkEventMessage | { type: 'done'; outcome: Record<string, unknown> };
}

/** One event of the run, as stream-json prints it: every agent event but `done`, through `eventRecord`. */
export type SdkEventMessage = RecordOf<AgentEvent>;

export function usageRecord(usage: Usage): SdkUsage {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_read_input_tokens: usage.cachedInputTokens,
    cache_creation_input_tokens: usage.cacheWriteTokens,
  };
}

export function snakeCase(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** Renames every key, however deep; for events whose shape this file does not know. */
export function withSnakeCaseKeys<T>(value: T): SnakeCaseKeys<T> {
  return renamed(value) as SnakeCaseKeys<T>;
}

function renamed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(renamed);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [snakeCase(key), renamed(inner)]));
}

function toolResultFields(result: ToolResult): ToolResultRecord {
  const denial = result.permissionDenial;
  return {
    is_error: result.isError,
    text: result.text,
    ...(result.savedPath ? { saved_path: result.savedPath } : {}),
    ...(result.images?.length ? { image_count: result.images.length } : {}),
    ...(denial
      ? {
          permission_denial: {
            reason: denial.reason,
            ...(denial.category ? { category: denial.category } : {}),
            ...(denial.remedy ? { remedy: denial.remedy } : {}),
          },
        }
      : {}),
  };
}

/** One event as its stream-json line; undefined for `done`, which the result record replaces. */
export function eventRecord(event: AgentEvent): SdkEventMessage | undefined {
  switch (event.type) {
    case 'done':
      return undefined;
    // The most frequent event by far (a piece per token): made without renaming anything.
    case 'text_delta':
    case 'thinking_delta':
      return { type: event.type, text: event.text };
    case 'tool_call':
      return { type: event.type, id: event.id, name: event.name, input: event.input };
    case 'tool_result':
      return { type: event.type, id: event.id, name: event.name, ...toolResultFields(event.result) };
    case 'usage':
      return {
        type: event.type,
        request_usage: usageRecord(event.request),
        total_usage: usageRecord(event.usage),
        context_tokens: event.contextTokens,
      };
    case 'retry':
      return { type: event.type, attempt: event.attempt, delay_ms: event.delayMs, message: event.message };
    case 'compaction':
      return { type: event.type, summary: event.summary, tokens_before: event.before };
    case 'user_file':
      return {
        type: event.type,
        path: event.path,
        absolute_path: event.absolutePath,
        bytes: event.bytes,
        ...(event.caption !== undefined ? { caption: event.caption } : {}),
      };
    case 'subagent': {
      // A child's event, tagged with the child; its end is the child's outcome, not hidden.
      const inner =
        event.event.type === 'done'
          ? { type: 'done' as const, outcome: withSnakeCaseKeys(event.event.outcome) }
          : eventRecord(event.event);
      const { id, name, type, depth } = event.child;
      return inner ? { type: event.type, agent: { id, name, type, depth }, event: inner } : undefined;
    }
    case 'user_message':
    case 'request_start':
    case 'assistant_text':
    case 'tool_start':
    case 'tool_progress':
    case 'mode_change':
    case 'working':
    case 'phase_report':
    case 'report':
    case 'plan':
    case 'todo':
    case 'brief':
    case 'notification':
    case 'question':
    case 'notice':
    case 'approval_request':
    case 'approval_answer':
    case 'error':
      // Fields already one word or snake_case; renaming keeps any later field in style.
      return withSnakeCaseKeys(event);
    default: {
      // The union is closed; an event from outside it (a client built against a newer core) is
      // still printed, in the same style.
      const unlisted: { type: string } = event;
      return withSnakeCaseKeys(unlisted) as SdkEventMessage;
    }
  }
}
