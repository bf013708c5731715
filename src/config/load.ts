import { globalSettingsPath, workspaceSettingsPath } from './paths.js';
import { mergeSettings, type NamedLayer, type ResolvedSettings, readSettingsFile } from './settings.js';
import type { SettingsLayer } from './types.js';
import { validateSettings } from './validate.js';

/**
 * Loads settings in order — global `settings/settings.json`, workspace `.agents/settings.json`,
 * then the command line — later winning, deny rules from every level kept. Until the user
 * trusts the workspace, its file may only tighten (`ignoredUntrusted` says what it lost). A
 * file that does not parse, or holds a key of the wrong type, throws a SettingsError.
 */
export function loadSettings(options: {
  documentsRoot: string;
  workspace: string;
  commandLine?: SettingsLayer;
  workspaceTrusted: boolean;
}): ResolvedSettings {
  const globalPath = globalSettingsPath(options.documentsRoot);
  const workspacePath = workspaceSettingsPath(options.workspace);
  const layers: NamedLayer[] = [
    { source: globalPath, settings: readSettingsFile(globalPath) },
    {
      source: workspacePath,
      settings: readSettingsFile(workspacePath),
      untrusted: !options.workspaceTrusted,
    },
  ];
  if (options.commandLine)
    layers.push({ source: 'command line', settings: validateSettings(options.commandLine, 'command line') });
  return mergeSettings(layers);
}
