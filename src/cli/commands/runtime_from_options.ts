import type { ApprovalCategory, Mode, Profile } from '../../config/types.js';
import { createRuntime, type Runtime, type RuntimeOptions } from '../../runtime/create_runtime.js';

export interface CommonOptions {
  cwd?: string;
  profile?: Profile;
  mode?: Mode;
  feature?: string[];
  noFeature?: string[];
  json?: boolean;
  approve?: string[];
  yolo?: boolean;
  sandbox?: 'read-only' | 'workspace-write' | 'off';
}

/** The runtime options the command-line flags stand for. */
export function runtimeOptionsFrom(opts: CommonOptions): RuntimeOptions {
  const approve: RuntimeOptions['approve'] = opts.approve?.includes('all')
    ? 'all'
    : (opts.approve as ApprovalCategory[] | undefined);
  return {
    cwd: opts.cwd,
    profile: opts.profile,
    mode: opts.mode,
    features: [...(opts.feature ?? []), ...(opts.noFeature ?? []).map((f) => `-${f}`)],
    approve,
    yolo: opts.yolo,
    settings: opts.sandbox ? { sandbox: { mode: opts.sandbox } } : undefined,
  };
}

/**
 * Connects the MCP servers of the settings and waits until each is up or has failed, so their
 * tools can be listed or called; undefined (nothing of MCP loaded) when none is configured.
 */
export async function connectMcpServers(runtime: Runtime): Promise<{ close(): Promise<void> } | undefined> {
  const { attachMcp } = await import('../../mcp/attach.js');
  const hub = await attachMcp(runtime, { report: (line) => process.stderr.write(`lathe: ${line}\n`) });
  await hub?.connectAll();
  return hub;
}

/** Builds the runtime a command works in and prints settings warnings to stderr. */
export function runtimeFromOptions(opts: CommonOptions, extra: Partial<RuntimeOptions> = {}): Runtime {
  const runtime = createRuntime({ ...runtimeOptionsFrom(opts), ...extra });
  for (const warning of runtime.warnings) process.stderr.write(`lathe: warning: ${warning}\n`);
  return runtime;
}
