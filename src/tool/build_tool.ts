import { declaredSubject } from './declared_subject.js';
import type { CallFacts } from './facts.js';
import type { OwnFact, Tool, ToolDefinition } from './types.js';

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

type Fact<I> = (input: I, facts: CallFacts) => boolean;

/** One of lathe's own facts as declared, else the contract flag it defaults to (and whether that is dynamic). */
function ownFact<I>(declared: OwnFact<I> | undefined, flag: Fact<I>, flagDynamic: boolean) {
  if (declared === undefined) return { fact: flag, dynamic: flagDynamic };
  if (typeof declared === 'function') return { fact: declared, dynamic: true };
  return { fact: () => declared, dynamic: false };
}

/**
 * Makes a tool from a definition, filling what it leaves out with the safe defaults:
 * enabled, not read-only, not concurrency-safe, not destructive, permissions left to the engine
 * (the subject it judges derived from the kind and `touchedPaths` when none is declared), no
 * files changed, shown to people by its name. lathe's own facts default to the flags they
 * refine: Plan mode allows what is read-only, what is concurrency-safe runs in parallel, what is
 * destructive destroys.
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
    describeChange,
    planModeAllowed,
    runsInParallel,
    destroysExisting,
    ...rest
  } = definition;
  const flags = {
    readOnly: dynamic?.readOnly ?? false,
    concurrencySafe: dynamic?.concurrencySafe ?? false,
    destructive: dynamic?.destructive ?? false,
  };
  const readOnly = isReadOnly ?? (() => false);
  const concurrencySafe = isConcurrencySafe ?? (() => false);
  const destructive = isDestructive ?? (() => false);
  const plan = ownFact(planModeAllowed, readOnly, flags.readOnly);
  const parallel = ownFact(runsInParallel, concurrencySafe, flags.concurrencySafe);
  const destroys = ownFact(destroysExisting, destructive, flags.destructive);
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
      ...flags,
      planModeAllowed: plan.dynamic,
      runsInParallel: parallel.dynamic,
      destroysExisting: destroys.dynamic,
    },
    isEnabled: isEnabled ?? (() => true),
    isReadOnly: readOnly,
    isConcurrencySafe: concurrencySafe,
    isDestructive: destructive,
    planModeAllowed: plan.fact,
    runsInParallel: parallel.fact,
    destroysExisting: destroys.fact,
    checkPermissions: checkPermissions ?? (() => ({ behavior: 'allow' })),
    toAutoClassifierInput: toAutoClassifierInput ?? (() => ''),
    userFacingName: userFacingName ?? (() => definition.name),
    describeChange: describeChange ?? (async () => undefined),
    permissionSubject: permissionSubject ?? declaredSubject(definition),
    validateInput: validateInput ?? (() => undefined),
    source,
  };
}
