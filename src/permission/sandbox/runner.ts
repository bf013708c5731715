import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Mode } from '../../config/types.js';
import type { Place } from '../place.js';
import { wrapCommand } from './command_line.js';
import { systemSockets } from './host_sockets.js';
import { filesToMask } from './masking.js';
import type { SandboxDescription, SandboxPolicy, SandboxStatus, WrappedCommand } from './policy.js';
import { describeOutcome, type ProbeOutcome, probeBubblewrap } from './probe.js';

export interface SandboxOptions {
  /** The agent's current mode: in Plan mode every command runs in the read-only sandbox. */
  agentMode?: () => Mode;
  /** Where the writable root is read from at each command, when it moves (a worktree); default `policy.workspace`. */
  place?: Pick<Place, 'workspace'>;
}

export interface WrapCallOptions {
  /** The mode of the agent making this call (overrides `SandboxOptions.agentMode`). */
  agentMode?: Mode;
  /** The writable root of this one command (a new worktree's setup), instead of the runtime's. */
  workspace?: string;
}

/**
 * The sandbox of one runtime: it is probed once, on first use (or when the client asks, at
 * start), and then wraps every command, or none when it does not work here.
 */
export class Sandbox {
  private probed?: Promise<ProbeOutcome>;
  /** Stops a probe still running when the runtime ends: its process would keep lathe alive. */
  private readonly probeStopper = new AbortController();
  private sockets?: string[];
  private maskFolder?: string;

  constructor(
    readonly policy: SandboxPolicy,
    private readonly options: SandboxOptions = {},
  ) {}

  private probe(): Promise<ProbeOutcome> {
    this.probed ??= probeBubblewrap(this.policy, this.probeStopper.signal);
    return this.probed;
  }

  async check(): Promise<SandboxStatus> {
    if (this.policy.mode === 'off') return { active: false, reason: 'the sandbox is off (--sandbox off)' };
    return (await this.probe()).status;
  }

  /** Active or why not, capabilities dropped, user namespace: for `lathe doctor`. */
  async describe(): Promise<SandboxDescription> {
    return describeOutcome(this.policy, await this.probe());
  }

  /**
   * The command line to run, inside the sandbox when it works; `undefined` means run it bare.
   * In Plan mode it is the read-only sandbox, whatever the configured mode (even `off`, when
   * bubblewrap works here).
   */
  async wrap(argv: string[], cwd: string, call: WrapCallOptions = {}): Promise<WrappedCommand | undefined> {
    const plan = (call.agentMode ?? this.options.agentMode?.()) === 'plan';
    const mode = plan ? 'read-only' : this.policy.mode;
    if (mode === 'off') return undefined;
    const probe = await this.probe();
    if (!probe.status.active) return undefined;
    const workspace = call.workspace ?? this.options.place?.workspace ?? this.policy.workspace;
    const masked = await filesToMask(this.policy.readDenied?.() ?? [], workspace);
    this.sockets ??= systemSockets();
    return wrapCommand({ ...this.policy, mode, workspace }, argv, cwd, {
      unshareUser: probe.unshareUser,
      masked,
      emptyFile: masked.length > 0 ? this.emptyFile() : undefined,
      sockets: this.sockets,
    });
  }

  /** Stops a running probe and removes the empty file masks are made of. */
  dispose(): void {
    this.probeStopper.abort();
    if (this.maskFolder) rmSync(this.maskFolder, { recursive: true, force: true });
    this.maskFolder = undefined;
  }

  /** An empty read-only file in lathe's own folder (outside the workspace), bound over each masked file. */
  private emptyFile(): string {
    if (!this.maskFolder) {
      mkdirSync(this.policy.documentsRoot, { recursive: true });
      const folder = mkdtempSync(join(this.policy.documentsRoot, 'sandbox-mask-'));
      // Readable by whoever runs bubblewrap; it only ever holds an empty file.
      chmodSync(folder, 0o755);
      writeFileSync(join(folder, 'empty'), '', { mode: 0o444 });
      this.maskFolder = folder;
    }
    return join(this.maskFolder, 'empty');
  }
}
