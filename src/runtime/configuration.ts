import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { resolveFeatures, unknownFeatures } from '../config/features.js';
import { loadSettings } from '../config/load.js';
import { documentsRoot as defaultDocumentsRoot } from '../config/paths.js';
import type { ResolvedSettings } from '../config/settings.js';
import { isFolderTrusted, type WorkspaceTrust } from '../config/trust.js';
import {
  APPROVAL_CATEGORIES,
  type ApprovalCategory,
  type Mode,
  type Profile,
  type SettingsLayer,
} from '../config/types.js';
import { describeServer, loadMcpConfig } from '../mcp/config.js';
import { realPathOf } from '../permission/paths.js';

export class RuntimeError extends Error {}

/** The options configuration is resolved from (a part of `RuntimeOptions`). */
export interface ConfigurationOptions {
  /** The working folder; the workspace is its real path. Default: process.cwd(). */
  cwd?: string;
  profile?: Profile;
  mode?: Mode;
  strictPlanMode?: boolean;
  /** Feature switches on top of settings and LATHE_FEATURES: `name` turns on, `-name` off. */
  features?: string[];
  /** Approval categories whose asks are answered yes, or "all". */
  approve?: readonly ApprovalCategory[] | 'all';
  /** A settings layer applied last, as the command line is. */
  settings?: SettingsLayer;
  /** The user trusts this folder for this run (`--trust`), whatever the trusted-folders list says. */
  trust?: boolean;
  documentsRoot?: string;
  env?: NodeJS.ProcessEnv;
}

/** Where a runtime works and what it works with: settings, trust, feature switches, and the problems found. */
export interface RuntimeConfiguration {
  env: NodeJS.ProcessEnv;
  /** The working folder's real path; tools work in it. */
  workspace: string;
  documentsRoot: string;
  settings: ResolvedSettings;
  trust: WorkspaceTrust;
  features: ReadonlySet<string>;
  /** Problems with settings or switches: reported, never fatal. */
  warnings: string[];
}

function checkFolder(cwd: string): string {
  let isDirectory = false;
  try {
    isDirectory = statSync(cwd).isDirectory();
  } catch {
    throw new RuntimeError(`The working folder ${cwd} does not exist.`);
  }
  if (!isDirectory) throw new RuntimeError(`The working folder ${cwd} is not a folder.`);
  return realPathOf(cwd);
}

/**
 * Where a runtime with these options works: the workspace (the working folder's real path) and
 * documents-root; throws RuntimeError for a working folder that is not there.
 */
export function runtimePlaces(options: Pick<ConfigurationOptions, 'cwd' | 'documentsRoot' | 'env'> = {}): {
  workspace: string;
  documentsRoot: string;
} {
  return {
    workspace: checkFolder(resolve(options.cwd ?? process.cwd())),
    documentsRoot: resolve(options.documentsRoot ?? defaultDocumentsRoot(options.env ?? process.env)),
  };
}

/** Settings (global, workspace, command line), the workspace's trust and the feature switches of a runtime. */
export function resolveConfiguration(options: ConfigurationOptions): RuntimeConfiguration {
  const env = options.env ?? process.env;
  const { workspace, documentsRoot } = runtimePlaces(options);
  const commandLine: SettingsLayer = { ...options.settings };
  if (options.profile) commandLine.profile = options.profile;
  if (options.mode) commandLine.mode = options.mode;
  if (options.strictPlanMode !== undefined) commandLine.strictPlanMode = options.strictPlanMode;
  const workspaceTrusted = options.trust === true || isFolderTrusted(documentsRoot, workspace);
  const settings = loadSettings({ documentsRoot, workspace, commandLine, workspaceTrusted });
  const warnings = [...settings.warnings];
  const trust: WorkspaceTrust = {
    trusted: workspaceTrusted,
    settings: settings.ignoredUntrusted,
    mcpServers: workspaceTrusted
      ? []
      : loadMcpConfig({ documentsRoot, workspace, workspaceTrusted, env }).untrusted.map((server) =>
          describeServer(server, workspace),
        ),
  };

  const enable = (options.features ?? []).filter((f) => !f.startsWith('-'));
  const disable = (options.features ?? []).filter((f) => f.startsWith('-')).map((f) => f.slice(1));
  const features = resolveFeatures({
    settingsLayers: settings.featureLayers,
    env: env.LATHE_FEATURES,
    enable,
    disable,
  });
  for (const name of unknownFeatures(features))
    warnings.push(`unknown feature "${name}" (see docs/tools.md)`);
  if (Array.isArray(options.approve)) {
    for (const c of options.approve) {
      if (!(APPROVAL_CATEGORIES as readonly string[]).includes(c)) {
        warnings.push(`unknown approval category "${c}" (use ${APPROVAL_CATEGORIES.join(', ')} or all)`);
      }
    }
  }
  return { env, workspace, documentsRoot, settings, trust, features, warnings };
}
