import { declaredSubject } from './declared_subject.js';
import type { Tool, ToolDefinition } from './types.js';

/** Result budgets (characters): past these a result is saved to a file and previewed. */
export const DEFAULT_RESULT_CHARS = 50_000;
export const SHELL_RESULT_CHARS = 30_000;
export const SEARCH_RESULT_CHARS = 20_000;
/** About 25,000 tokens: MCP results, of the MCP tools and of each server's own tools. */
export const MCP_RESULT_CHARS = 100_000;

/** A call's arguments as the UI shows them when the tool says nothing better: compact JSON. */
export function compactJson(input: unknown, max = 120): string {
  if (input === undefined) return '';
  const text = typeof input === 'string' ? input : (JSON.stringify(input) ?? '');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The default detail of a call: its `path` argument, else its arguments. */
export function defaultCallDetail(input: unknown, show: (path: string) => string): string {
  const path = input !== null && typeof input === 'object' ? (input as { path?: unknown }).path : undefined;
  return typeof path === 'string' ? show(path) : compactJson(input);
}

/**
 * Makes a tool from a definition, filling what it leaves out with the safe defaults:
 * enabled, not read-only, not concurrency-safe, not destructive, permissions left to the engine
 * (the subject it judges derived from the kind and `touchedPaths` when none is declared), no
 * files changed.
 */
export function buildTool<I>(definition: ToolDefinition<I>, source: Tool['source'] = 'builtin'): Tool<I> {
  const {
    liteDescription,
    permissionSubject,
    validateInput,
    dynamic,
    cancelsSiblingsOnError,
    isEnabled,
    isReadOnly,
    isConcurrencySafe,
    isDestructive,
    checkPermissions,
    toAutoClassifierInput,
    title,
    describeChange,
    ...rest
  } = definition;
  return {
    ...rest,
    aliases: definition.aliases ?? [],
    needsAgent: definition.needsAgent ?? false,
    resultView: definition.resultView ?? (definition.touchedPaths ? 'diff' : 'head'),
    refusedInStrictPlan: definition.refusedInStrictPlan ?? false,
    maxResultChars: definition.maxResultChars ?? DEFAULT_RESULT_CHARS,
    liteDescription: liteDescription ?? definition.description,
    cancelsSiblingsOnError: cancelsSiblingsOnError ?? false,
    dynamic: {
      readOnly: dynamic?.readOnly ?? false,
      concurrencySafe: dynamic?.concurrencySafe ?? false,
      destructive: dynamic?.destructive ?? false,
    },
    isEnabled: isEnabled ?? (() => true),
    isReadOnly: isReadOnly ?? (() => false),
    isConcurrencySafe: isConcurrencySafe ?? (() => false),
    isDestructive: isDestructive ?? (() => false),
    checkPermissions: checkPermissions ?? (() => ({ behavior: 'allow' })),
    toAutoClassifierInput: toAutoClassifierInput ?? (() => ''),
    title: title ?? (() => definition.name),
    describeChange: describeChange ?? (async () => undefined),
    permissionSubject: permissionSubject ?? declaredSubject(definition),
    validateInput: validateInput ?? (() => undefined),
    source,
  };
}
