import type { Tool, ToolKind } from './types.js';

/** The kinds whose calls change files: they declare `touchedPaths` and `describeChange`. */
const FILE_CHANGING: ReadonlySet<ToolKind> = new Set(['edit', 'delete', 'move']);
/** The kinds whose calls look at files or data without changing them. */
const READING: ReadonlySet<ToolKind> = new Set(['read', 'search']);

/** Whether the tool's calls change files (write, edit, patch, delete, move). */
export const changesFiles = (tool: Pick<Tool, 'kind'>): boolean => FILE_CHANGING.has(tool.kind);

/** Whether the tool reads or searches (files, outputs, listings) and changes nothing. */
export const readsOnly = (tool: Pick<Tool, 'kind'>): boolean => READING.has(tool.kind);

/** Whether the tool's calls show as their own entries (a question, a plan, a report), not as tool lines. */
export const talksToUser = (tool: Pick<Tool, 'kind'>): boolean => tool.kind === 'conversation';
