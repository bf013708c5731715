import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ChangeContext, Tool, ToolResult } from './types.js';

/** The session's record of what its tool calls did, beside its other files. */
export const WORK_RECORD_FILE = 'work.jsonl';

/** One line of the record: a plan the user approved, or a call that ran. */
export type WorkEntry =
  | { type: 'plan'; at: string; plan: string }
  | {
      type: 'call';
      at: string;
      tool: string;
      ok: boolean;
      /** The files the call changed (absolute), as its tool declares them. */
      paths?: string[];
      /** The command it ran, and how that ended. */
      command?: string;
      exitCode?: number | null;
    };

/** What a result's `data` carries when the user approved a plan (make_plan, exit_plan_mode). */
export interface ApprovedPlanData {
  approvedPlan: string;
}

function approvedPlan(result: ToolResult): string | undefined {
  const plan = (result.data as Partial<ApprovedPlanData> | undefined)?.approvedPlan;
  return typeof plan === 'string' ? plan : undefined;
}

/**
 * The record line of a finished call, or undefined for calls that neither change files, run
 * commands nor approve a plan (reads are not work). A call refused by permissions did nothing.
 */
export function workEntry(
  tool: Tool,
  input: unknown,
  result: ToolResult,
  where: ChangeContext,
): WorkEntry | undefined {
  const at = new Date().toISOString();
  if (result.permissionDenial) return undefined;
  const plan = approvedPlan(result);
  if (plan !== undefined) return { type: 'plan', at, plan };
  const paths = tool.touchedPaths?.(input, where).map((p) => resolve(where.cwd, p));
  const given = (input as { command?: unknown } | undefined)?.command;
  const command = tool.kind === 'execute' && typeof given === 'string' ? given : undefined;
  if (!paths?.length && command === undefined) return undefined;
  const exit = (result.data as { exitCode?: unknown } | undefined)?.exitCode;
  return {
    type: 'call',
    at,
    tool: tool.name,
    ok: !result.isError,
    ...(paths?.length ? { paths } : {}),
    ...(command !== undefined ? { command } : {}),
    ...(typeof exit === 'number' || exit === null ? { exitCode: exit } : {}),
  };
}

/** Appends a line; a record that cannot be written (a full disk) never fails the call. */
export function appendWork(sessionDir: string, entry: WorkEntry): void {
  try {
    mkdirSync(sessionDir, { recursive: true });
    appendFileSync(join(sessionDir, WORK_RECORD_FILE), `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  } catch {
    // best effort: verify_plan_execution says when the record is missing
  }
}

/** The record of a session, oldest first; lines that do not parse are skipped. */
export function readWork(sessionDir: string): WorkEntry[] {
  let text: string;
  try {
    text = readFileSync(join(sessionDir, WORK_RECORD_FILE), 'utf8');
  } catch {
    return [];
  }
  const entries: WorkEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const entry = JSON.parse(line) as WorkEntry;
      if (entry.type === 'plan' || entry.type === 'call') entries.push(entry);
    } catch {
      // a line cut short by a crash
    }
  }
  return entries;
}
