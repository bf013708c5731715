import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { diskErrorText } from '../util/disk_error.js';
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
 * Result budgeting: a result longer than its budget is saved whole under the
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
  const savedPath = join(dir, `${callId.replace(/[^A-Za-z0-9_-]/g, '_')}.txt`);
  const saveError = await saveWhole(dir, savedPath, result.text);
  const previewBudget = Math.max(1_000, budget - 400);
  const preview = headAndTail(
    result.text,
    previewBudget,
    (omitted) => `[… ${omitted.toLocaleString('en-US')} characters omitted …]`,
  );
  const size = `The result was ${result.text.length.toLocaleString('en-US')} characters, over this tool's budget of ${budget.toLocaleString('en-US')}.`;
  if (saveError) {
    return {
      ...result,
      text: `${preview}\n\n[${size} The whole result could not be saved (${saveError}), so only this preview is left; narrow the call to see the rest.]`,
    };
  }
  const note =
    `[${size} The whole result is saved at ${savedPath}; read it with read_file ` +
    'and offset/limit, or search it with search_files.]';
  return { ...result, text: `${preview}\n\n${note}`, savedPath };
}

/** Saves the whole result; on failure (a full disk) removes any part written and says why. */
async function saveWhole(dir: string, path: string, text: string): Promise<string | undefined> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(path, text, { mode: 0o600 });
    return undefined;
  } catch (error) {
    await rm(path, { force: true }).catch(() => undefined);
    return diskErrorText(error);
  }
}
