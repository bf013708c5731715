import type { SettingsLayer } from './types.js';

/** Settings `context`: when the conversation is compacted. */
export interface ContextSettings {
  /** The share of the context window (above 0, at most 1) at which the conversation is compacted. */
  compactAt: number;
}

export const DEFAULT_CONTEXT_SETTINGS: ContextSettings = { compactAt: 0.85 };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const validShare = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= 1;

/** What is wrong with a layer's `context` section, one line per key (empty: nothing). */
export function contextSettingProblems(value: unknown): string[] {
  if (!isObject(value)) return ['"context" must be an object'];
  const problems: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (key !== 'compactAt') problems.push(`"context.${key}" is not known (use compactAt)`);
    else if (!validShare(item))
      problems.push(
        `"context.compactAt" must be a share of the context window above 0 and at most 1, like 0.85 (found ${JSON.stringify(item)})`,
      );
  }
  return problems;
}

export function mergeContextSettings(resolved: ContextSettings, layer: SettingsLayer): void {
  const share = layer.context?.compactAt;
  if (validShare(share)) resolved.compactAt = share;
}

/** The token count at which compaction starts: the share of the window, as a whole number of tokens. */
export function compactionThreshold(contextWindow: number, compactAt: number): number {
  // The small margin keeps 0.85 × 200,000 at 170,000 despite binary fractions.
  return Math.ceil(contextWindow * compactAt - 1e-6);
}
