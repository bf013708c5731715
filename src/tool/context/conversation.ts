import { compactionThreshold } from '../../config/context_settings.js';

/** One part of what a model request carries, in tokens. */
export interface ContextPart {
  name: 'system prompt' | 'tools' | 'rules' | 'skills list' | 'messages' | 'tool results';
  tokens: number;
}

/** One item of the context the model may name to snip (a message or a tool result), or a fixed one. */
export interface ContextItem {
  /** `msg-N` (a message, 1-based), a tool call's id (its result), or a label (`tool read_file`). */
  id: string;
  what: string;
  tokens: number;
}

/** What fills the context now: parts, the total, and where compaction starts. */
export interface ContextReport {
  parts: ContextPart[];
  total: number;
  /** The model's context window, and the share of it at which the conversation is compacted. */
  window: number;
  compactAt: number;
  /** The largest items, largest first. */
  largest: ContextItem[];
  /**
   * How the counts were made: lathe's own count (o200k tokenizer), scaled to the provider's
   * count of the last request when that count is known and close enough to be trusted.
   */
  counting: { scale: number; providerTokens?: number; trusted: boolean };
  /** The user's lasting instructions (`#` lines, `/pin`), kept verbatim through compaction. */
  lasting: string[];
}

/** Which old messages snip cuts: named ones, or every message before a user turn. */
export interface SnipRequest {
  ids?: string[];
  /** 1-based number of a user prompt: everything before it goes. */
  beforeTurn?: number;
}

/** What snip removed, or why it removed nothing. */
export type SnipOutcome =
  | { ok: true; removed: Array<{ id: string; what: string; tokens: number }>; freed: number }
  | { ok: false; error: string };

/** The running agent's conversation, for ctx_inspect and snip; absent when a tool runs alone. */
export interface ConversationAccess {
  inspect(): Promise<ContextReport>;
  /** Absent where the context cannot be changed (a fresh session outside any agent). */
  snip?(request: SnipRequest): Promise<SnipOutcome>;
}

const n = (value: number) => value.toLocaleString('en-US');

/** The report as ctx_inspect's result: parts, total, the largest items with their ids, lasting instructions. */
export function contextReportText(report: ContextReport): string {
  const threshold = compactionThreshold(report.window, report.compactAt);
  const lines = [
    `Context: ${n(report.total)} of ${n(report.window)} tokens (${((report.total / report.window) * 100).toFixed(1)}%); compaction at ${n(threshold)} (${Math.round(report.compactAt * 100)}%).`,
    ...report.parts.map((part) => `${part.name}: ${n(part.tokens)}`),
  ];
  const { scale, providerTokens, trusted } = report.counting;
  if (trusted)
    lines.push(`(o200k counts, scaled ×${scale.toFixed(3)} to the provider's count of the last request)`);
  else if (providerTokens !== undefined)
    lines.push(
      `(o200k counts; the provider's count of the last request, ${n(providerTokens)}, is too far off to scale by)`,
    );
  else lines.push('(o200k counts)');
  if (report.largest.length > 0) {
    lines.push('', 'Largest items (snip takes msg-N and call ids):');
    for (const item of report.largest) lines.push(`${n(item.tokens)}  ${item.id}  ${item.what}`);
  }
  if (report.lasting.length > 0) {
    lines.push('', 'Lasting instructions (kept word for word through compaction):', ...report.lasting);
  }
  return lines.join('\n');
}
