import type { SettingsLayer } from './types.js';

/** Settings `checkpoints`: snapshots of the workspace before each prompt and each change. */
export interface CheckpointSettings {
  enabled: boolean;
  /** Checkpoints kept per workspace; older ones are pruned. */
  keep: number;
  /** Checkpoints older than this many days are pruned. */
  maxAgeDays: number;
  /** Patterns in .gitignore form, relative to the workspace, left out of checkpoints. */
  exclude: string[];
}

export const DEFAULT_CHECKPOINT_SETTINGS: CheckpointSettings = {
  enabled: true,
  keep: 100,
  maxAgeDays: 30,
  exclude: [],
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const positiveWhole = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value > 0;

/** What is wrong with a layer's `checkpoints` section, one line per key (empty: nothing). */
export function checkpointSettingProblems(value: unknown): string[] {
  if (!isObject(value)) return ['"checkpoints" must be an object'];
  const problems: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (key === 'enabled') {
      if (typeof item !== 'boolean') problems.push('"checkpoints.enabled" must be true or false');
    } else if (key === 'keep' || key === 'maxAgeDays') {
      if (!positiveWhole(item)) problems.push(`"checkpoints.${key}" must be a positive whole number`);
    } else if (key === 'exclude') {
      if (!Array.isArray(item) || !item.every((p) => typeof p === 'string'))
        problems.push('"checkpoints.exclude" must be a list of patterns');
    } else {
      problems.push(`"checkpoints.${key}" is not known (use enabled, keep, maxAgeDays, exclude)`);
    }
  }
  return problems;
}

/**
 * Applies one (checked) layer's `checkpoints` section: later layers win; exclusions add up. (An
 * untrusted folder's `enabled: false` and `exclude` never get here: see untrusted_keys.ts.)
 */
export function mergeCheckpointSettings(resolved: CheckpointSettings, layer: SettingsLayer): void {
  const section = layer.checkpoints;
  if (!isObject(section)) return;
  if (typeof section.enabled === 'boolean') resolved.enabled = section.enabled;
  if (positiveWhole(section.keep)) resolved.keep = section.keep;
  if (positiveWhole(section.maxAgeDays)) resolved.maxAgeDays = section.maxAgeDays;
  if (Array.isArray(section.exclude))
    resolved.exclude = [...resolved.exclude, ...section.exclude.filter((p) => typeof p === 'string')];
}
