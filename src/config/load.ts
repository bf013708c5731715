import { globalSettingsPath, workspaceSettingsPath } from './paths.js';
import { mergeSettings, type NamedLayer, type ResolvedSettings, readSettingsFile } from './settings.js';
import type { SettingsLayer } from './types.js';

/**
 * Loads settings in order — global `settings/settings.json`, workspace `.agents/settings.json`,
 * then the command line — later winning, deny rules from every level kept.
 */
export function loadSettings(options: {
  documentsRoot: string;
  workspace: string;
  commandLine?: SettingsLayer;
}): ResolvedSettings {
  const warnings: string[] = [];
  const globalPath = globalSettingsPath(options.documentsRoot);
  const workspacePath = workspaceSettingsPath(options.workspace);
  const layers: NamedLayer[] = [
    { source: globalPath, settings: readSettingsFile(globalPath, warnings) },
    { source: workspacePath, settings: readSettingsFile(workspacePath, warnings) },
  ];
  if (options.commandLine) layers.push({ source: 'command line', settings: options.commandLine });
  return mergeSettings(layers, warnings);
}
