import { commandPlaces, type NamedPath } from './shell/arguments.js';
import { gitRepositoryProblem } from './shell/git_repository.js';
import { networkProblem } from './shell/network.js';
import { isReadOnlySubcommand } from './shell/readonly.js';
import type { Subcommand } from './shell/types.js';

export interface CommandFacts {
  /** Why the command is not read-only here, beyond what its text shows (network, git's repository). */
  notReadOnly: string[];
  /** The files and folders it names, read or written. */
  paths: NamedPath[];
}

export interface CommandSurroundings {
  /** The folder the command starts in. */
  cwd: string;
  workspace: string;
  /** Whether a command can reach the network (the sandbox lets it, or there is no sandbox). */
  network: boolean;
}

/**
 * What a parsed shell command does in this place, beyond its text: the paths its words name (for
 * deny rules, protected paths and reads outside the workspace), and whether reaching the network
 * or git's repository config make it more than a read.
 */
export function commandFacts(subcommands: Subcommand[], where: CommandSurroundings): CommandFacts {
  const places = commandPlaces(subcommands, where.cwd, isReadOnlySubcommand);
  const notReadOnly: string[] = [];
  subcommands.forEach((sub, index) => {
    const shown = sub.text.length > 80 ? `${sub.text.slice(0, 77)}...` : sub.text;
    if (where.network) {
      const problem = networkProblem(sub);
      if (problem) notReadOnly.push(`${shown}: ${problem}`);
    }
    if (sub.argv[0] === 'git' && !sub.dynamic) {
      const problem = gitRepositoryProblem(sub, places.folders[index], where.workspace);
      if (problem) notReadOnly.push(`${shown}: ${problem}`);
    }
  });
  return { notReadOnly: [...new Set(notReadOnly)], paths: places.paths };
}
