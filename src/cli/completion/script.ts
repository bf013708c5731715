import type { Command } from 'commander';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { completionSpec } from './spec.js';
import { zshScript } from './zsh.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

const SCRIPTS: Record<Shell, (spec: ReturnType<typeof completionSpec>) => string> = {
  bash: bashScript,
  zsh: zshScript,
  fish: fishScript,
};

/** `lathe completion SHELL`: the script, from the program's own commands and options. */
export function completionCommand(shell: Shell, program: Command): number {
  process.stdout.write(SCRIPTS[shell](completionSpec(program)));
  return 0;
}
