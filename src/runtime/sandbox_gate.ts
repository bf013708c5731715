import type { PermissionDecision } from '../permission/types.js';

/** What the gate needs of the sandbox: its probe (run once) and the mode it was asked for. */
export interface ProbedSandbox {
  readonly policy: { readonly mode: string };
  check(): Promise<{ active: true } | { active: false; reason: string }>;
}

export interface SandboxGateOptions {
  sandbox: ProbedSandbox;
  /**
   * Where `sandbox.mode` was set: the user's own settings and the command line may turn the
   * sandbox off; a workspace's settings file only once the user trusts the folder (a cloned
   * repository could carry one).
   */
  modeSource?: string;
  workspaceSettingsPath: string;
  workspaceTrusted: boolean;
  /** A person answers approvals here (the UI) and --yolo is off: an unsandboxed command asks. */
  canAsk: boolean;
  /** Where this runs on a system lathe has a sandbox for (Linux); elsewhere commands run as they are. */
  platform?: NodeJS.Platform;
}

/**
 * Fail closed. When the sandbox should wrap commands but cannot (bubblewrap missing, its probe
 * failing), a command is never run bare without a word: a person is asked each time; without
 * one (headless, --yolo, `lathe mcp serve`, `lathe tool`) it is refused, saying what to do.
 */
export class SandboxGate {
  /** Commands refused so far, so a client can say so once. */
  refused = 0;

  constructor(private readonly options: SandboxGateOptions) {}

  /** Why commands cannot run in the sandbox though they should; undefined when all is well. */
  async problem(): Promise<string | undefined> {
    const { sandbox, modeSource, workspaceSettingsPath, workspaceTrusted } = this.options;
    if ((this.options.platform ?? process.platform) !== 'linux') return undefined;
    if (sandbox.policy.mode === 'off') {
      if (modeSource !== workspaceSettingsPath || workspaceTrusted) return undefined;
      return `the workspace's settings (${workspaceSettingsPath}) turn it off, which only your own settings, a trusted folder's or --sandbox off may do`;
    }
    const status = await sandbox.check();
    return status.active ? undefined : status.reason;
  }

  async decide(): Promise<PermissionDecision> {
    const problem = await this.problem();
    if (problem === undefined) return { behavior: 'allow' };
    if (this.options.canAsk)
      return {
        behavior: 'ask',
        reason: `the sandbox is unavailable (${problem}): this command would run without it (no sandbox: always asks)`,
        sticky: 'sandbox',
      };
    this.refused++;
    return { behavior: 'deny', reason: refusalText(problem) };
  }

  /** One line for the start of a run (a notice, a banner), or undefined when all is well. */
  async notice(): Promise<string | undefined> {
    const problem = await this.problem();
    if (problem === undefined) return undefined;
    return this.options.canAsk
      ? `The sandbox is off: ${problem}. Each command asks before it runs without it; ${remedy(problem)}.`
      : `commands are refused: ${refusalText(problem)}`;
  }
}

/** What to do about it, for the problem at hand. */
function remedy(problem: string): string {
  const install = /not installed/.test(problem) ? 'install it (apt install bubblewrap) or ' : '';
  return `${install}pass --sandbox off to run commands without it`;
}

/** The refusal, in words a user (or a model) can act on. */
export function refusalText(problem: string): string {
  return `the sandbox is unavailable: ${problem}; ${remedy(problem)}`;
}
