import { readSettingsObject } from '../../config/settings_file.js';
import { atomicWriteFile } from '../../edit/atomic_write.js';
import { parseRule } from '../../permission/rules.js';
import type { PermissionRule } from '../../permission/types.js';

/**
 * Adds allow rules to a settings file's `permissions.allow`, keeping everything else in it. The
 * file is replaced atomically (a JSONC file's comments are not kept); a file that does not parse
 * is left alone and reported, never overwritten. Returns the rules that were new.
 */
export async function saveAllowRules(file: string, rules: string[]): Promise<string[]> {
  let settings: Record<string, unknown>;
  try {
    settings = readSettingsObject(file) ?? {};
  } catch (error) {
    throw new Error(`${(error as Error).message}; the rule was not saved`);
  }
  const permissions = (
    settings.permissions && typeof settings.permissions === 'object' ? settings.permissions : {}
  ) as Record<string, unknown>;
  const allow = Array.isArray(permissions.allow) ? [...permissions.allow] : [];
  const added = rules.filter((rule) => !allow.includes(rule));
  if (added.length === 0) return [];
  settings.permissions = { ...permissions, allow: [...allow, ...added] };
  await atomicWriteFile(file, `${JSON.stringify(settings, null, 2)}\n`);
  return added;
}

/** The rules as the permission engine holds them, to add to a running session. */
export function allowRules(rules: string[], source: string): PermissionRule[] {
  const parsed: PermissionRule[] = [];
  for (const rule of rules) {
    const result = parseRule({ rule, action: 'allow', source });
    if (typeof result !== 'string') parsed.push(result);
  }
  return parsed;
}
