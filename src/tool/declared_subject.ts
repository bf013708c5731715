import type { PermissionSubject } from '../permission/types.js';
import type { ToolDefinition, ToolKind } from './types.js';

/** Kinds whose calls read, change and run nothing the permission engine judges by themselves. */
const QUIET_KINDS: ReadonlySet<ToolKind> = new Set(['think', 'conversation', 'other']);
const READING_KINDS: ReadonlySet<ToolKind> = new Set(['read', 'search']);

/** Input fields that name a path: `path`, `paths`, `file`, `files`, `source_path`, `filePath` … */
const PATH_FIELD = /(?:^|_)(?:path|paths|file|files)$|[a-z](?:Path|Paths|File|Files)$/;

/** For a tool whose calls touch nothing the engine judges (lathe's own lists and guides). */
export const touchesNothing = (): PermissionSubject => ({ kind: 'none' });

/**
 * The paths an input names: the strings of its top-level fields that name paths, or, when it has
 * no such field, every top-level string (any of them could name a file: judged as one).
 */
export function namedPaths(input: unknown): string[] {
  if (input === null || typeof input !== 'object') return [];
  const strings = (value: unknown): string[] => {
    if (typeof value === 'string') return [value];
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  };
  const fields = Object.entries(input);
  const named = fields.filter(([key]) => PATH_FIELD.test(key));
  return (named.length > 0 ? named : fields).flatMap(([, value]) => strings(value));
}

/**
 * The permission subject of a tool that declares none, from what it does declare, so that
 * forgetting it fails closed: the files it changes (`touchedPaths`) are edited; a reading kind
 * reads, and a changing kind edits, the paths its input names (deny rules, protected paths and
 * "outside the workspace" apply to them); a running kind runs a command that is not read-only, a
 * fetching kind reaches the web, an agent kind starts agents. Only the kinds that touch nothing
 * by themselves (`think`, `conversation`, `other`) leave the engine nothing to check.
 */
export function declaredSubject<I>(
  definition: Pick<ToolDefinition<I>, 'kind' | 'touchedPaths'>,
): NonNullable<ToolDefinition<I>['permissionSubject']> {
  const { kind, touchedPaths } = definition;
  if (touchedPaths) return (input, ctx) => ({ kind: 'edit', paths: touchedPaths(input, ctx) });
  if (READING_KINDS.has(kind)) return (input) => ({ kind: 'read', paths: namedPaths(input) });
  if (kind === 'execute') return () => ({ kind: 'execute', readOnlyCommand: false });
  if (kind === 'fetch') return () => ({ kind: 'web' });
  if (kind === 'agent') return () => ({ kind: 'subagents' });
  if (QUIET_KINDS.has(kind)) return touchesNothing;
  // A changing kind, or one added later: an edit, which asks.
  return (input) => ({ kind: 'edit', paths: namedPaths(input) });
}
