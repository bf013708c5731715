import type { JobOutcome, JobTry } from './types.js';

/** A try as it starts. */
export function startedTry(attempt: number, worker: string): JobTry {
  return {
    attempt,
    worker,
    startedAt: new Date().toISOString(),
    usage: { inputTokens: 0, outputTokens: 0 },
    costUsd: null,
  };
}

/**
 * The outcome of the try that ended (`attempt`) with every try in it: the earlier ones that did
 * not end are lost, and the job's usage and cost are the sums over all of them.
 */
export function withEveryTry(outcome: JobOutcome, tries: readonly JobTry[], attempt: number): JobOutcome {
  const others = tries.filter((t) => t.attempt !== attempt).map((t) => ({ ...t, ended: t.ended ?? 'lost' }));
  const own = tries.find((t) => t.attempt === attempt) ?? startedTry(attempt, outcome.worker ?? '');
  const last: JobTry = {
    ...own,
    usage: outcome.usage ?? own.usage,
    costUsd: outcome.costUsd ?? own.costUsd,
    ...(outcome.turns !== undefined ? { turns: outcome.turns } : {}),
    ended: outcome.status,
  };
  const all = [...others, last].sort((a, b) => a.attempt - b.attempt);
  if (all.length === 1) return { ...outcome, tries: all };
  const known = all.filter((t) => t.costUsd !== null);
  const counted = all.filter((t) => t.turns !== undefined);
  return {
    ...outcome,
    tries: all,
    ...(counted.length > 0 ? { turns: counted.reduce((sum, t) => sum + (t.turns ?? 0), 0) } : {}),
    usage: {
      inputTokens: all.reduce((sum, t) => sum + t.usage.inputTokens, 0),
      outputTokens: all.reduce((sum, t) => sum + t.usage.outputTokens, 0),
    },
    costUsd:
      known.length === 0 ? (outcome.costUsd ?? null) : known.reduce((sum, t) => sum + (t.costUsd ?? 0), 0),
  };
}
