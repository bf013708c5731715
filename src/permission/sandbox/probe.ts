import { type CollectedRun, collectProcess } from '../../util/collect_process.js';
import { wrapCommand } from './command_line.js';
import type { SandboxDescription, SandboxPolicy, SandboxStatus } from './policy.js';

/** What one probe found out. */
export interface ProbeOutcome {
  status: SandboxStatus;
  /** `--unshare-user` works here (commands get it). */
  unshareUser: boolean;
  /** The probe command ran in a user namespace other than the host's. */
  userNamespace: boolean;
  /** The probe command held no capabilities. */
  capabilitiesDropped: boolean;
}

const PROBE_COMMAND = ['cat', '/proc/self/status', '/proc/self/uid_map'];
const HOST_UID_MAP = /^\s*0\s+0\s+4294967295\s*$/;

/**
 * Runs `cat /proc/self/status /proc/self/uid_map` in the sandbox (as commands will run, in the
 * workspace): it works only if bubblewrap starts and the command inside has no effective or
 * permitted capabilities — as root, capabilities would let it remount the read-only binds
 * writable. A user namespace is tried first and left out where the host forbids one.
 */
export async function probeBubblewrap(policy: SandboxPolicy, signal?: AbortSignal): Promise<ProbeOutcome> {
  const inactive = (reason: string): ProbeOutcome => ({
    status: { active: false, reason },
    unshareUser: false,
    userNamespace: false,
    capabilitiesDropped: false,
  });
  if (process.platform !== 'linux') return inactive(`no sandbox on ${process.platform} yet`);
  const probePolicy: SandboxPolicy = {
    ...policy,
    mode: policy.mode === 'off' ? 'read-only' : policy.mode,
  };
  const attempt = async (unshareUser: boolean): Promise<CollectedRun> => {
    const wrapped = wrapCommand(probePolicy, PROBE_COMMAND, policy.workspace, { unshareUser });
    // `cat` changes nothing, so there is nothing to undo after it (no cleanup).
    return collectProcess(wrapped.argv, { signal });
  };
  let unshareUser = true;
  let result = await attempt(unshareUser);
  if (signal?.aborted) return inactive('the sandbox probe was stopped');
  if (!result.error && result.code !== 0) {
    // Some hosts (container runtimes' seccomp filters) forbid user namespaces.
    unshareUser = false;
    result = await attempt(unshareUser);
  }
  if (result.error?.code === 'ENOENT') return inactive('bubblewrap (bwrap) is not installed');
  if (result.error) return inactive(`bubblewrap failed to start: ${result.error.message}`);
  if (result.code !== 0) {
    const line = result.stderr.trim().split('\n')[0];
    return inactive(`bubblewrap does not work here: ${line || `exit ${result.code}`}`);
  }
  const effective = capValue(result.stdout, 'CapEff');
  const permitted = capValue(result.stdout, 'CapPrm');
  const uidMap = result.stdout.split('\n').find((line) => /^\s*\d+\s+\d+\s+\d+\s*$/.test(line)) ?? '';
  const userNamespace = uidMap !== '' && !HOST_UID_MAP.test(uidMap);
  if (effective !== 0n || permitted !== 0n) {
    return {
      ...inactive(
        `a command inside bubblewrap keeps capabilities (CapEff ${effective?.toString(16) ?? 'unknown'}), so it could make read-only mounts writable`,
      ),
      unshareUser,
      userNamespace,
    };
  }
  return { status: { active: true }, unshareUser, userNamespace, capabilitiesDropped: true };
}

function capValue(status: string, name: string): bigint | undefined {
  const match = new RegExp(`^${name}:\\s*([0-9a-f]+)$`, 'm').exec(status);
  return match ? BigInt(`0x${match[1]}`) : undefined;
}

/** Whether the sandbox works here: bubblewrap runs and a command inside holds no capabilities. */
export async function probeSandbox(policy: SandboxPolicy): Promise<SandboxStatus> {
  if (policy.mode === 'off') return { active: false, reason: 'the sandbox is off (--sandbox off)' };
  return (await probeBubblewrap(policy)).status;
}

/** The sandbox as `lathe doctor` shows it: active or why not, capabilities, user namespace. */
export function describeOutcome(policy: SandboxPolicy, outcome: ProbeOutcome): SandboxDescription {
  const status: SandboxStatus =
    policy.mode === 'off' ? { active: false, reason: 'the sandbox is off (--sandbox off)' } : outcome.status;
  return {
    active: status.active,
    reason: status.active ? undefined : status.reason,
    mode: policy.mode,
    network: policy.network,
    capabilitiesDropped: outcome.capabilitiesDropped,
    userNamespace: outcome.userNamespace,
  };
}

/** Probes the sandbox of a policy and describes it (see `describeOutcome`). */
export async function describeSandbox(policy: SandboxPolicy): Promise<SandboxDescription> {
  return describeOutcome(policy, await probeBubblewrap(policy));
}
