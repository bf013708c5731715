import type { Tool, ToolDefinition } from './types.js';

/** Result budgets (characters): past these a result is saved to a file and previewed. */
export const DEFAULT_RESULT_CHARS = 50_000;
export const SHELL_RESULT_CHARS = 30_000;
export const SEARCH_RESULT_CHARS = 20_000;
/** About 25,000 tokens: MCP results, of the MCP tools and of each server's own tools. */
export const MCP_RESULT_CHARS = 100_000;

/**
 * Makes a tool from a definition, filling what it leaves out with the safe defaults:
 * enabled, not read-only, not concurrency-safe, not destructive, permissions left to the engine.
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
    userFacingName,
    ...rest
  } = definition;
  return {
    ...rest,
    aliases: definition.aliases ?? [],
    maxResultChars: definition.maxResultChars ?? DEFAULT_RESULT_CHARS,
    liteDescription: liteDescription ?? definition.description,
    cancelsSiblingsOnError: cancelsSiblingsOnError ?? false,
    dynamic: { readOnly: dynamic?.readOnly ?? false, concurrencySafe: dynamic?.concurrencySafe ?? false },
    isEnabled: isEnabled ?? (() => true),
    isReadOnly: isReadOnly ?? (() => false),
    isConcurrencySafe: isConcurrencySafe ?? (() => false),
    isDestructive: isDestructive ?? (() => false),
    checkPermissions: checkPermissions ?? (() => ({ behavior: 'allow' })),
    toAutoClassifierInput: toAutoClassifierInput ?? (() => ''),
    userFacingName: userFacingName ?? (() => definition.name),
    permissionSubject: permissionSubject ?? (() => ({ kind: 'none' })),
    validateInput: validateInput ?? (() => undefined),
    source,
  };
}
