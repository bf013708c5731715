import type { Subcommand } from './types.js';

/** Bash opens a connection for a redirection to one of these (and some tools for an argument). */
const SOCKET_PATH = /^\/dev\/(tcp|udp)\//;

/** Programs whose whole purpose is the network (they are not read-only anyway; named for a clear reason). */
const NETWORK_PROGRAMS = new Set(
  'curl wget ssh scp sftp rsync nc ncat netcat telnet ftp dig nslookup host ping http https'.split(' '),
);

const NPM_REGISTRY_READS = new Set(['view', 'v', 'info', 'show', 'search', 'outdated', 'ping']);

/**
 * Why this subcommand can reach the network, or undefined. Read-only commands on this list (npm
 * view, git remote show, a read from /dev/tcp) only stay read-only while the sandbox cuts the
 * network: a command that can send its arguments somewhere can send what it read.
 */
export function networkProblem(sub: Subcommand): string | undefined {
  const socket =
    sub.redirects.find((r) => SOCKET_PATH.test(r.target)) ?? sub.words.find((w) => SOCKET_PATH.test(w.value));
  if (socket) return `opens a network connection (${'target' in socket ? socket.target : socket.value})`;
  const [name, ...args] = sub.argv;
  if (name === undefined) return undefined;
  if (NETWORK_PROGRAMS.has(name)) return `${name} reaches the network`;
  const operands = withoutOptionValues(args).filter((arg) => !arg.startsWith('-'));
  if (name === 'npm' && NPM_REGISTRY_READS.has(operands[0] ?? ''))
    return `npm ${operands[0]} asks the registry over the network`;
  if (name === 'git' && operands[0] === 'remote' && operands[1] === 'show' && !args.includes('-n'))
    return 'git remote show asks the remote over the network';
  return undefined;
}

/** git's global options whose value is the next word (`-C dir`) must not pass for the subcommand. */
function withoutOptionValues(args: string[]): string[] {
  return args.filter(
    (_, i) => !['-C', '--git-dir', '--work-tree', '--namespace'].includes(args[i - 1] ?? ''),
  );
}
