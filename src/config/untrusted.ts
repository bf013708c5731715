import type { SettingsLayer } from './types.js';
import { REFUSED_FROM_UNTRUSTED, type SettingsSoFar, UNTRUSTED_MAY_SET } from './untrusted_keys.js';

export type { SettingsSoFar };

/** Every section that holds a decided key (`web`, `web.timeouts`, `agents.tree`, …): walked into. */
const SECTIONS = new Set(
  [...Object.keys(UNTRUSTED_MAY_SET), ...Object.keys(REFUSED_FROM_UNTRUSTED)].flatMap((path) =>
    path
      .split('.')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('.')),
  ),
);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** How a refused key is named in the line that tells the user. */
function refusedName(path: string, value: unknown): string | undefined {
  if (path !== 'permissions.allow') return path;
  const rules = Array.isArray(value) ? value : [];
  if (rules.length === 0) return undefined;
  return rules.length === 1 ? `the allow rule ${rules[0]}` : `${rules.length} allow rules`;
}

function keptSection(
  section: Record<string, unknown>,
  prefix: string,
  now: SettingsSoFar,
  ignored: string[],
): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(section)) {
    if (value === undefined) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    const rule = UNTRUSTED_MAY_SET[path];
    if (rule) {
      const verdict = rule(value, now, path);
      if (verdict.keep !== undefined) kept[key] = verdict.keep;
      if (verdict.ignored) ignored.push(verdict.ignored);
    } else if (!(path in REFUSED_FROM_UNTRUSTED) && SECTIONS.has(path) && isObject(value)) {
      kept[key] = keptSection(value, path, now, ignored);
    } else {
      const name = refusedName(path, value);
      if (name) ignored.push(name);
    }
  }
  return kept;
}

/**
 * The part of an untrusted folder's settings that may apply: an allow-list, key by key
 * (untrusted_keys.ts). What only tightens — deny and ask rules, stricter approvals, a stricter
 * sandbox, no network, Plan mode, features switched off, lower limits — and the keys that change
 * nothing about safety (model, profile, …) are kept. Every other key, a key lathe does not know
 * included, is dropped and named in `ignored`, for the line that tells the user.
 */
export function tightenOnly(
  layer: SettingsLayer,
  current: SettingsSoFar,
): { layer: SettingsLayer; ignored: string[] } {
  const ignored: string[] = [];
  return { layer: keptSection(layer, '', current, ignored) as SettingsLayer, ignored };
}
