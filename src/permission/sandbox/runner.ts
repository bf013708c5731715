import {
  probeSandbox,
  type SandboxPolicy,
  type SandboxStatus,
  type WrappedCommand,
  wrapCommand,
} from './bubblewrap.js';

/**
 * The sandbox of one runtime: it is probed once, on first use (or when the client asks, at
 * start), and then wraps every command, or none when it does not work here.
 */
export class Sandbox {
  private status?: Promise<SandboxStatus>;

  constructor(readonly policy: SandboxPolicy) {}

  check(): Promise<SandboxStatus> {
    this.status ??= probeSandbox(this.policy);
    return this.status;
  }

  /** The command line to run, inside the sandbox when it works; `undefined` means run it bare. */
  async wrap(argv: string[], cwd: string): Promise<WrappedCommand | undefined> {
    const status = await this.check();
    return status.active ? wrapCommand(this.policy, argv, cwd) : undefined;
  }
}
