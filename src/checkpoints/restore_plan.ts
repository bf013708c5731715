import type { Checkpoint, FileRecord } from './records.js';

/**
 * How to bring the workspace back to where it was at a checkpoint, from the checkpoints taken
 * since. Each holds some files as they were when it was taken: a tree snapshot every file the
 * walk finds, a checkpoint of some files those it names. A file was, at the target, as the first
 * checkpoint from the target on that holds it has it; a file none holds was not changed by any
 * call since, and is left as it is.
 */
export interface RestorePlan {
  /** The first tree snapshot from the target on: every file the walk covers is as it has it. */
  base?: Checkpoint;
  /** Files saved one by one from the target on, as the first copy of each has it (null: not there). */
  copies: Map<string, FileRecord | null>;
  /** Of the copies, those first saved after the base: they count only where its walk does not reach. */
  afterBase: Set<string>;
}

/** The plan for going back to `all[from]` (`all` oldest first). */
export function planRestore(all: readonly Checkpoint[], from: number): RestorePlan {
  const plan: RestorePlan = { copies: new Map(), afterBase: new Set() };
  for (const checkpoint of all.slice(from)) {
    if (checkpoint.scope === 'tree') {
      plan.base ??= checkpoint;
      continue;
    }
    for (const [path, record] of Object.entries(checkpoint.files ?? {})) {
      if (plan.copies.has(path)) continue;
      plan.copies.set(path, record);
      if (plan.base) plan.afterBase.add(path);
    }
  }
  return plan;
}

/** Whether the plan would change anything at all: some checkpoint since holds a file. */
export const changesAnything = (plan: RestorePlan): boolean =>
  plan.base !== undefined || plan.copies.size > 0;

/**
 * The copies to lay over the base tree (or over the files as they are, without one): all before
 * the base, and after it those of files its walk does not cover (`outside`).
 */
export function overlay(plan: RestorePlan, outside: ReadonlySet<string>): Map<string, FileRecord | null> {
  const laid = new Map<string, FileRecord | null>();
  for (const [path, record] of plan.copies)
    if (!plan.afterBase.has(path) || outside.has(path)) laid.set(path, record);
  return laid;
}
