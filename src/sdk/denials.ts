import { callLabel } from '../tool/call_label.js';
import { builtinTool } from '../tools/index.js';
import type { SdkSubagentRecord } from './records.js';

/** A call permissions refused, as the json result lists it. */
export interface DeniedCall {
  tool: string;
  call_id: string;
  input: unknown;
  reason: string;
  category?: string;
  remedy?: string;
  /** The child agent that made the call (`name (id)`); absent for the run's own agent. */
  agent?: string;
}

/** Tool inputs stream as JSON text from some providers; a refused call's input is shown parsed. */
function parsedInput(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

/**
 * Collects the calls permissions refused during a run, from its records (the stream-json
 * events): each `tool_call` gives the input the model sent, its `tool_result` whether (and why)
 * it was refused.
 */
export class DenialCollector {
  readonly denied: DeniedCall[] = [];
  private readonly inputs = new Map<string, unknown>();

  /** The refusal this record reports, if it reports one; a child's calls count as the run's. */
  take(record: SdkSubagentRecord['event'], agent?: { id: string; name: string }): DeniedCall | undefined {
    // Most records are text deltas: they are passed over before anything else is done.
    if (record.type !== 'tool_call' && record.type !== 'tool_result' && record.type !== 'subagent')
      return undefined;
    if (record.type === 'subagent') return this.take(record.event, record.agent);
    // Children's call ids are their own providers': kept apart from the parent's.
    const key = (id: string) => (agent ? `${agent.id}:${id}` : id);
    const id = record.id;
    if (record.type === 'tool_call') {
      this.inputs.set(key(id), parsedInput(record.input));
      return undefined;
    }
    const input = this.inputs.get(key(id));
    this.inputs.delete(key(id));
    const denial = record.permission_denial;
    if (!denial) return undefined;
    const denied: DeniedCall = {
      tool: record.name,
      call_id: id,
      input: input ?? {},
      reason: denial.reason,
      ...(denial.category ? { category: denial.category } : {}),
      ...(denial.remedy ? { remedy: denial.remedy } : {}),
      ...(agent ? { agent: `${agent.name} (${agent.id})` } : {}),
    };
    this.denied.push(denied);
    return denied;
  }
}

/** Paths and commands may hold line breaks and control characters; a refusal stays one line. */
function oneLine(text: string): string {
  return text
    .replace(/\s*[\r\n\t]+\s*/g, ' ')
    .replace(/[\x00-\x1f\x7f]/g, '')
    .trim();
}

const MAX_DETAIL = 120;

/** What the call is about, as its tool's declaration says (paths as given); else its input as JSON. */
function callDetail(tool: string, input: unknown): string {
  const text = callLabel(builtinTool(tool), tool, input, (path) => path).detail;
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL - 1)}…` : text;
}

/**
 * The one stderr line of a refusal:
 * "refused: execute_command `rm -rf build` — needs approval (category executeAll); rerun with …".
 */
export function refusalLine(denied: DeniedCall): string {
  const detail = oneLine(callDetail(denied.tool, denied.input));
  // The engine's reasons often start with the tool's name, which the line already gave.
  const reason = denied.reason.startsWith(`${denied.tool} `)
    ? denied.reason.slice(denied.tool.length + 1)
    : denied.reason;
  const what = detail ? `${denied.tool} \`${detail}\`` : denied.tool;
  const by = denied.agent ? ` (child agent ${denied.agent})` : '';
  return oneLine(`refused: ${what}${by} — ${reason}${denied.remedy ? `; ${denied.remedy}` : ''}`);
}
