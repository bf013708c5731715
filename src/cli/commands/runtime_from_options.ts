import { resolve } from 'node:path';
import { trustNotice } from '../../config/trust.js';
import type { ApprovalCategory, Mode, Profile, SettingsLayer } from '../../config/types.js';
import { createRuntime, type Runtime, type RuntimeOptions } from '../../runtime/create_runtime.js';

export interface CommonOptions {
  cwd?: string;
  profile?: Profile;
  mode?: Mode;
  /** `--strict-plan`: Strict Plan Mode for this run, as settings `strictPlanMode: true`. */
  strictPlan?: boolean;
  feature?: string[];
  noFeature?: string[];
  json?: boolean;
  approve?: string[];
  yolo?: boolean;
  sandbox?: 'read-only' | 'workspace-write' | 'off';
  /** `--trust`: trust the folder for this run. */
  trust?: boolean;
  addDir?: string[];
  allowedTools?: string[];
  disallowedTools?: string[];
  /** The lathe command itself (not a flag): headless runs of schedules and triggers start it. */
  latheBin?: string;
}

/** The runtime options the command-line flags stand for. */
export function runtimeOptionsFrom(opts: CommonOptions): RuntimeOptions {
  const approve: RuntimeOptions['approve'] = opts.approve?.includes('all')
    ? 'all'
    : (opts.approve as ApprovalCategory[] | undefined);
  // The command line is the last settings layer: its rules join the settings' own.
  const settings: SettingsLayer = {};
  if (opts.sandbox) settings.sandbox = { mode: opts.sandbox };
  if (opts.allowedTools?.length || opts.disallowedTools?.length) {
    settings.permissions = {
      ...(opts.allowedTools?.length ? { allow: opts.allowedTools } : {}),
      ...(opts.disallowedTools?.length ? { deny: opts.disallowedTools } : {}),
    };
  }
  return {
    cwd: opts.cwd,
    profile: opts.profile,
    mode: opts.mode,
    ...(opts.strictPlan ? { strictPlanMode: true } : {}),
    features: [...(opts.feature ?? []), ...(opts.noFeature ?? []).map((f) => `-${f}`)],
    approve,
    yolo: opts.yolo,
    trust: opts.trust,
    settings: Object.keys(settings).length > 0 ? settings : undefined,
    ...(opts.addDir?.length ? { addDirs: opts.addDir.map((dir) => resolve(dir)) } : {}),
    ...(opts.latheBin ? { latheBin: opts.latheBin } : {}),
  };
}

/**
 * Connects the MCP servers of the settings and waits until each is up or has failed, at most
 * `mcp.startupTimeout` (a server still starting then is reported and left out), so their tools
 * can be listed or called; undefined (nothing of MCP loaded) when none is configured.
 */
export async function connectMcpServers(runtime: Runtime): Promise<{ close(): Promise<void> } | undefined> {
  const { attachMcp, waitForMcpStartup } = await import('../../mcp/attach.js');
  const report = (line: string) => process.stderr.write(`lathe: ${line}\n`);
  const hub = await attachMcp(runtime, { report });
  if (hub)
    await waitForMcpStartup(hub, runtime.settings.mcp.startupTimeoutMs, report, 'its tools are left out');
  return hub;
}

/** Prints a runtime's settings warnings, and what an untrusted folder did not get, to stderr. */
export function reportRuntimeNotices(runtime: Runtime): void {
  for (const warning of runtime.warnings) process.stderr.write(`lathe: warning: ${warning}\n`);
  const untrusted = trustNotice(runtime.trust);
  if (untrusted) process.stderr.write(`lathe: ${untrusted}\n`);
}

/** Builds the runtime a command works in and prints its notices to stderr. */
export function runtimeFromOptions(opts: CommonOptions, extra: Partial<RuntimeOptions> = {}): Runtime {
  const runtime = createRuntime({ ...runtimeOptionsFrom(opts), ...extra });
  reportRuntimeNotices(runtime);
  return runtime;
}
