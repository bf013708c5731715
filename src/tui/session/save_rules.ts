import { readFile } from 'node:fs/promises';
import { atomicWriteFile } from '../../edit/atomic_write.js';
import { parseRule } from '../../permission/rules.js';
import type { PermissionRule } from '../../permission/types.js';

/**
 * Adds allow rules to a settings file's `permissions.allow`, keeping everything else in it. The
 * file is replaced atomically; a file that is not valid JSON is left alone and reported, never
 * overwritten. Returns the rules that were new.
 */
export async function saveAllowRules(file: string, rules: string[]): Promise<string[]> {
  let settings: Record<string, unknown> = {};
  try {
    const text = await readFile(file, 'utf8');
    const parsed = text.trim() === '' ? {} : (JSON.parse(text) as unknown);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new Error(`${file} does not hold a JSON object; the rule was not saved`);
    settings = parsed as Record<string, unknown>;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') {
      if (error instanceof SyntaxError)
        throw new Error(`${file} is not valid JSON (${error.message}); the rule was not saved`);
      throw error;
    }
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
