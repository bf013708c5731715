import type { CallLabel } from '../../tool/call_label.js';
import type { Tool } from '../../tool/types.js';

/**
 * What the UI knows of the tools: their declarations by name (a call of any session, resumed or
 * of another profile, is shown the same way), and how a call reads. Tools it does not know (an
 * MCP server's) are shown by their name and arguments.
 */
export interface ToolCatalogue {
  find(name: string): Tool | undefined;
  all(): readonly Tool[];
  label(tool: Tool | undefined, name: string, input: unknown, show: (path: string) => string): CallLabel;
  /** The tool's read-only fact for this input, judged without a parse step's facts. */
  readsOnly(tool: Tool, input: unknown): boolean;
}

/**
 * Installed when the tools load, with the session: the first frame is drawn before them and shows
 * no tool call, so it does not wait for them.
 */
let catalogue: ToolCatalogue | undefined;

export function installToolCatalogue(tools: ToolCatalogue): void {
  catalogue = tools;
}

export const declaredTool = (name: string): Tool | undefined => catalogue?.find(name);

/** The call's label from its tool's declaration: `{verb: 'Read', detail: 'src/a.ts:10+20'}`. */
export function callLabelOf(name: string, input: unknown, show: (path: string) => string): CallLabel {
  return (
    catalogue?.label(declaredTool(name), name, input, show) ?? { verb: name, detail: '', declared: false }
  );
}

/** Calls of the tools that talk to the user show as their own entries (a question, a plan), not as tool lines. */
export const showsOwnEntry = (name: string): boolean => declaredTool(name)?.needsAgent ?? false;

/** How the tool's finished result is previewed collapsed. */
export const resultView = (name: string): Tool['resultView'] => declaredTool(name)?.resultView ?? 'head';

/** Whether the tool runs shell commands (its rules name commands, its approval shows the command). */
export const runsCommands = (name: string): boolean => declaredTool(name)?.kind === 'execute';

/** The tools that change files (they say which): one "edits in this folder" rule covers them all. */
export function fileChangingTools(): string[] {
  return (catalogue?.all() ?? []).filter((t) => t.touchedPaths !== undefined).map((t) => t.name);
}

/**
 * Whether a call only reads or searches (its tool's kind and its read-only fact): such calls in a
 * row show as one line ("Read 10 files, searched 2 patterns"). Calls that stream their output
 * (a monitor) keep their own line, where the output shows.
 */
export function onlyReads(name: string, input: unknown): boolean {
  const tool = declaredTool(name);
  if (!tool || (tool.kind !== 'read' && tool.kind !== 'search') || tool.resultView === 'tail') return false;
  try {
    return catalogue?.readsOnly(tool, input) ?? false;
  } catch {
    return false;
  }
}
