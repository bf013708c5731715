import { onlyReads } from '../render/tool_facts.js';
import type { LiveEntry, ToolLine } from './items.js';

/** The tool call of a live entry, running or finished. */
export function liveTool(entry: LiveEntry | undefined): ToolLine | undefined {
  if (entry?.kind === 'tool') return entry.tool;
  if (entry?.kind === 'done' && entry.entry.kind === 'tool') return entry.entry.tool;
  return undefined;
}

const reads = (tool: ToolLine | undefined): tool is ToolLine => !!tool && onlyReads(tool.name, tool.input);

/** The read-only calls in a row from `start` (none when the entry there is not one). */
export function readRun(live: readonly LiveEntry[], start: number): ToolLine[] {
  const run: ToolLine[] = [];
  for (let i = start; i < live.length; i++) {
    const tool = liveTool(live[i]);
    if (!reads(tool)) break;
    run.push(tool);
  }
  return run;
}

export const isFinished = (tool: ToolLine): boolean =>
  tool.status === 'ok' || tool.status === 'error' || tool.status === 'cancelled';
