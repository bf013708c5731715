export type SandboxMode = 'read-only' | 'workspace-write' | 'off';

export interface SandboxPolicy {
  mode: SandboxMode;
  network: boolean;
  workspace: string;
  documentsRoot: string;
  bwrapPath?: string;
  /**
   * Globs of files denied for reading (workspace-relative, absolute or `~/…`, as in path rules);
   * each existing match is masked with an empty read-only file inside the sandbox.
   */
  readDenied?: () => readonly string[];
}

export interface WrappedCommand {
  argv: string[];
  /**
   * Run once the command has ended: removes what the command created at protected paths that
   * did not exist before (a mount cannot cover a path that does not exist) and says so, or
   * returns undefined when there was nothing to undo.
   */
  cleanup(): string | undefined;
}

export type SandboxStatus = { active: true } | { active: false; reason: string };

/** What the sandbox does here, for `lathe doctor`. */
export interface SandboxDescription {
  active: boolean;
  /** Why it is not active (or undefined when it is). */
  reason?: string;
  mode: SandboxMode;
  network: boolean;
  /** A command inside holds no capabilities (CapEff 0, checked by the probe). */
  capabilitiesDropped: boolean;
  /** Commands run in their own user namespace. */
  userNamespace: boolean;
}
