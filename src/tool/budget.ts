import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolResult } from './types.js';

/** Share of the budget given to the head of a preview; the rest goes to the tail. */
const HEAD_SHARE = 0.6;

/** Cuts `text` to about `budget` characters: its head, a marker, its tail. */
export function headAndTail(text: string, budget: number, marker: (omitted: number) => string): string {
  if (text.length <= budget) return text;
  const head = Math.floor(budget * HEAD_SHARE);
  const tail = budget - head;
  const omitted = text.length - head - tail;
  return `${text.slice(0, head)}\n${marker(omitted)}\n${text.slice(text.length - tail)}`;
}

/**
 * Result budgeting (SPEC §1): a result longer than its budget is saved whole under the
 * session's folder, and the model gets a head-and-tail preview plus the saved file's path.
 */
export async function budgetResult(
  result: ToolResult,
  budget: number,
  sessionDir: string,
  callId: string,
): Promise<ToolResult> {
  if (result.text.length <= budget) return result;
  const dir = join(sessionDir, 'tool-results');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const savedPath = join(dir, `${callId.replace(/[^A-Za-z0-9_-]/g, '_')}.txt`);
  await writeFile(savedPath, result.text, { mode: 0o600 });
  const previewBudget = Math.max(1_000, budget - 400);
  const preview = headAndTail(
    result.text,
    previewBudget,
    (omitted) => `[… ${omitted.toLocaleString('en-US')} characters omitted …]`,
  );
  const note =
    `[The result was ${result.text.length.toLocaleString('en-US')} characters, over this tool's budget of ` +
    `${budget.toLocaleString('en-US')}. The whole result is saved at ${savedPath}; read it with read_file ` +
    'and offset/limit, or search it with search_files.]';
  return { ...result, text: `${preview}\n\n${note}`, savedPath };
}
