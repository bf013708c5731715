/** Features that are on unless switched off in settings, --no-feature or LATHE_FEATURES. */
export const DEFAULT_ON_FEATURES = ['browser', 'subagents'] as const;

export const KNOWN_FEATURES = [
  'web',
  'image_generation',
  'browser',
  'focus_chain',
  'subagents',
  'proactive',
  'assistant',
  'github_webhooks',
  'triggers',
  'remote_triggers',
  'monitor',
  'lsp',
  'workflow_scripts',
  'history_snip',
  'peers',
  'context_collapse',
  'terminal_panel',
  'verify_plan',
  'coordinator',
  'tasks',
  'swarms',
  'worktree',
  'tool_search',
  'internal',
] as const;

export type FeatureLayer = string[] | Record<string, boolean> | undefined;

/** Applies one layer of switches: a list turns features on (`-name` off), an object sets each. */
function applyLayer(features: Set<string>, layer: FeatureLayer): void {
  if (!layer) return;
  if (Array.isArray(layer)) {
    for (const entry of layer) {
      const name = String(entry).trim();
      if (!name) continue;
      if (name.startsWith('-')) features.delete(name.slice(1));
      else features.add(name.replace(/^\+/, ''));
    }
    return;
  }
  for (const [name, on] of Object.entries(layer)) {
    if (on) features.add(name);
    else features.delete(name);
  }
}

/**
 * Resolves the feature set: defaults, then settings layers (global, workspace), then
 * `LATHE_FEATURES=a,b,-c`, then `--feature` / `--no-feature`; later wins.
 */
export function resolveFeatures(options: {
  settingsLayers?: FeatureLayer[];
  env?: string;
  enable?: string[];
  disable?: string[];
}): Set<string> {
  const features = new Set<string>(DEFAULT_ON_FEATURES);
  for (const layer of options.settingsLayers ?? []) applyLayer(features, layer);
  if (options.env) applyLayer(features, options.env.split(','));
  applyLayer(features, options.enable ?? []);
  applyLayer(
    features,
    (options.disable ?? []).map((name) => `-${name}`),
  );
  return features;
}

export function unknownFeatures(names: Iterable<string>): string[] {
  const known = new Set<string>(KNOWN_FEATURES);
  return [...names].filter((name) => !known.has(name));
}
