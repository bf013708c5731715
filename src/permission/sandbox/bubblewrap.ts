// The bubblewrap sandbox: what other layers import.
export { type WrapOptions, wrapCommand } from './command_line.js';
export type {
  SandboxDescription,
  SandboxMode,
  SandboxPolicy,
  SandboxStatus,
  WrappedCommand,
} from './policy.js';
export { describeSandbox, probeSandbox } from './probe.js';
