import type { SettingsLayer } from './types.js';

/**
 * The bounds on child agents (settings `agents`): how many run at once and how deep they nest,
 * and what each child, and all of them together, may spend.
 */
export interface AgentLimits {
  /** Children of one agent running at once; more wait for a free place. */
  concurrency: number;
  /** How deep children nest: the user's agent is depth 0, its children depth 1. */
  maxDepth: number;
  /** Model requests per child. */
  maxTurns: number;
  /** Tokens (input + output, over all its requests) per child. */
  maxTokens: number;
  /** Wall time per child. */
  maxMs: number;
  /** Every child of a session together (all depths). */
  tree: { maxTokens: number; maxMs: number };
}

export const DEFAULT_AGENT_LIMITS: AgentLimits = {
  concurrency: 4,
  maxDepth: 2,
  maxTurns: 50,
  maxTokens: 1_000_000,
  maxMs: 30 * 60_000,
  tree: { maxTokens: 3_000_000, maxMs: 2 * 60 * 60_000 },
};

type Checked = { value: number } | { problem: string };

const whole =
  (min: number) =>
  (value: unknown): Checked =>
    typeof value === 'number' && Number.isInteger(value) && value >= min
      ? { value }
      : { problem: `must be a whole number of at least ${min}` };

const seconds = (value: unknown): Checked =>
  typeof value === 'number' && Number.isFinite(value) && value > 0
    ? { value: Math.round(value * 1000) }
    : { problem: 'must be a positive number of seconds' };

/** Each key of the `agents` section: its check and where its value goes. */
const KEYS: ReadonlyArray<
  [path: string, check: (value: unknown) => Checked, set: (l: AgentLimits, n: number) => void]
> = [
  ['concurrency', whole(1), (l, n) => (l.concurrency = n)],
  ['maxDepth', whole(0), (l, n) => (l.maxDepth = n)],
  ['maxTurns', whole(1), (l, n) => (l.maxTurns = n)],
  ['maxTokens', whole(1), (l, n) => (l.maxTokens = n)],
  ['maxSeconds', seconds, (l, n) => (l.maxMs = n)],
  ['tree.maxTokens', whole(1), (l, n) => (l.tree.maxTokens = n)],
  ['tree.maxSeconds', seconds, (l, n) => (l.tree.maxMs = n)],
];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The problems of an `agents` section, one per key ("agents.maxDepth must be ..."). */
export function agentLimitProblems(section: unknown): string[] {
  if (!isObject(section)) return ['"agents" must be an object'];
  if (section.tree !== undefined && !isObject(section.tree)) return ['"agents.tree" must be an object'];
  const problems: string[] = [];
  for (const [path, check] of KEYS) {
    const raw = valueAt(section, path);
    if (raw === undefined) continue;
    const checked = check(raw);
    if ('problem' in checked)
      problems.push(`"agents.${path}" ${checked.problem} (found ${JSON.stringify(raw)})`);
  }
  return problems;
}

/** Applies one settings layer's `agents` section; a wrong value is a warning and the earlier value stays. */
export function mergeAgentLimits(
  limits: AgentLimits,
  source: string,
  settings: SettingsLayer,
  warnings: string[],
): void {
  const section = settings.agents;
  if (section === undefined) return;
  if (!isObject(section) || (section.tree !== undefined && !isObject(section.tree))) {
    warnings.push(`${source}: agents and agents.tree must be objects`);
    return;
  }
  for (const [path, check, set] of KEYS) {
    const raw = valueAt(section, path);
    if (raw === undefined) continue;
    const checked = check(raw);
    if ('value' in checked) set(limits, checked.value);
    else warnings.push(`${source}: agents.${path} ${checked.problem}`);
  }
}

function valueAt(section: Record<string, unknown>, path: string): unknown {
  const [first, second] = path.split('.');
  const value = section[first];
  return second === undefined ? value : isObject(value) ? value[second] : undefined;
}
