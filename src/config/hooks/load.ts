import { homedir } from 'node:os';
import { join } from 'node:path';
import { readSettingsObject } from '../settings_file.js';
import { parseHooks } from './parse.js';
import { HOOK_EVENTS, type HookGroup } from './types.js';

export interface LoadHooksOptions {
  /** The `hooks` object of each settings layer, in order (an untrusted workspace's never among them). */
  layers: ReadonlyArray<{ source: string; value: unknown }>;
  workspace: string;
  /** Whether the workspace is trusted: Claude Code's workspace files are read only then. */
  trusted: boolean;
  /** The user's home, for `~/.claude/settings.json` (default `os.homedir()`). */
  home?: string;
}

/** Claude Code's settings files that may hold hooks: the user's, then the project's. */
export function claudeSettingsFiles(workspace: string, trusted: boolean, home = homedir()): string[] {
  const files = [join(home, '.claude', 'settings.json')];
  if (trusted)
    files.push(
      join(workspace, '.claude', 'settings.json'),
      join(workspace, '.claude', 'settings.local.json'),
    );
  return files;
}

/**
 * The hooks of the settings layers and, when a layer sets `hooks.readClaude`, of Claude Code's
 * settings files. Problems in lathe's own files were refused when they were read (settings
 * validation); problems in Claude Code's files are warnings naming file and key, and the
 * hooks that cannot be read are left out.
 */
export function loadHooks(options: LoadHooksOptions): { groups: HookGroup[]; warnings: string[] } {
  const groups: HookGroup[] = [];
  const warnings: string[] = [];
  let readClaude = false;
  const take = (source: string, value: unknown) => {
    const parsed = parseHooks(value, source);
    groups.push(...parsed.groups);
    for (const problem of parsed.problems) warnings.push(`${source}: ${problem}; that hook is not run`);
    for (const event of parsed.unknownEvents)
      warnings.push(`${source}: hooks event "${event}" is not known; use ${HOOK_EVENTS.join(', ')}`);
    return parsed;
  };
  for (const layer of options.layers) {
    const parsed = take(layer.source, layer.value);
    if (parsed.readClaude !== undefined) readClaude = parsed.readClaude;
  }
  if (!readClaude) return { groups, warnings };
  for (const file of claudeSettingsFiles(options.workspace, options.trusted, options.home)) {
    let value: Record<string, unknown> | undefined;
    try {
      value = readSettingsObject(file);
    } catch (error) {
      warnings.push(`${(error as Error).message}; its hooks are not run`);
      continue;
    }
    if (value?.hooks !== undefined) take(file, value.hooks);
  }
  return { groups, warnings };
}
