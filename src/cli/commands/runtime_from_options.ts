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

/** Builds the runtime a command works in and prints settings warnings to stderr. */
export function runtimeFromOptions(opts: CommonOptions): Runtime {
  const runtime = createRuntime(runtimeOptionsFrom(opts));
  for (const warning of runtime.warnings) process.stderr.write(`lathe: warning: ${warning}\n`);
  return runtime;
}
