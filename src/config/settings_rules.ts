import { readSettingsObject, writeJsonFile } from './settings_file.js';

/**
 * Adds allow rules to a settings file's `permissions.allow`, keeping everything else in it. The
 * file is replaced whole, through a rename (a JSONC file's comments are not kept); a file that does not parse
 * is left alone and reported, never overwritten. Returns the rules that were new.
 */
export async function saveAllowRules(file: string, rules: string[]): Promise<string[]> {
  return saveRules(file, 'allow', rules);
}

/** Adds rules to a settings file's `permissions.allow` or `permissions.deny`, as `saveAllowRules` does. */
export async function saveRules(file: string, action: 'allow' | 'deny', rules: string[]): Promise<string[]> {
  const settings = readForChange(file, 'saved');
  const permissions = permissionsOf(settings);
  const list = Array.isArray(permissions[action]) ? [...(permissions[action] as unknown[])] : [];
  const added = rules.filter((rule) => !list.includes(rule));
  if (added.length === 0) return [];
  settings.permissions = { ...permissions, [action]: [...list, ...added] };
  writeJsonFile(file, settings);
  return added;
}

/**
 * Takes the first rule `matches` picks out of a settings file's `permissions.<action>`, keeping
 * everything else; written atomically, and a file that does not parse is never overwritten.
 * Returns whether a rule was removed.
 */
export async function removeRuleFromFile(
  file: string,
  action: string,
  matches: (rule: string) => boolean,
): Promise<boolean> {
  const settings = readForChange(file, 'removed');
  const permissions = permissionsOf(settings);
  const list = Array.isArray(permissions[action]) ? [...(permissions[action] as unknown[])] : [];
  const index = list.findIndex((rule) => typeof rule === 'string' && matches(rule));
  if (index < 0) return false;
  list.splice(index, 1);
  settings.permissions = { ...permissions, [action]: list };
  writeJsonFile(file, settings);
  return true;
}

function readForChange(file: string, what: 'saved' | 'removed'): Record<string, unknown> {
  try {
    return readSettingsObject(file) ?? {};
  } catch (error) {
    throw new Error(`${(error as Error).message}; the rule was not ${what}`);
  }
}

function permissionsOf(settings: Record<string, unknown>): Record<string, unknown> {
  return (
    settings.permissions && typeof settings.permissions === 'object' ? settings.permissions : {}
  ) as Record<string, unknown>;
}
