import type { PermissionRule } from './types.js';

/** Programs whose second word names what they do (`npm test`, `git push`). */
export const SUBCOMMAND_PROGRAMS: ReadonlySet<string> = new Set(
  (
    'npm npx pnpm yarn bun deno git gh cargo go docker podman kubectl helm make pip pip3 poetry uv uvx dotnet ' +
    'mvn gradle terraform brew apt apt-get systemctl rustup nix'
  ).split(' '),
);

/** Programs whose arguments are another command or a script. */
const COMMAND_RUNNERS = new Set(
  'bash sh zsh dash env xargs sudo doas timeout nice nohup exec command time watch eval'.split(' '),
);

/** A subcommand that shows what an open rule lets through. */
const RISKY_SUBCOMMAND: Record<string, string> = {
  git: 'push --force',
  npm: 'publish',
  pnpm: 'publish',
  yarn: 'publish',
  cargo: 'publish',
  docker: 'run',
  podman: 'run',
  kubectl: 'delete',
  helm: 'uninstall',
  terraform: 'destroy',
};

/**
 * Why an allow rule of a command tool allows more than it seems to, or undefined. Such a rule:
 * - allows every command: no pattern, `*`, or a pattern that starts with `*`;
 * - leaves open the subcommand of a program that has them (`git`, `git *`, `git:*`, `git*`,
 *   `git * main`: `git push` too), or the command of a program that runs one (`bash`, `env *`);
 * - holds a `*` that matches any characters (spaces, `/` and `..` included): one before the end of
 *   the pattern (`make * -k`), or one ending it after a character that is not a letter, digit,
 *   `_`, `:` or space (`./scripts/*` allows `./scripts/../rm`).
 * A `*` ending a word (`npm test*`, `npm test:*`) matches only at a word boundary, and ` *` at the
 * end stands for the arguments: neither is broader than it looks.
 */
export function broadAllowReason(pattern: string | undefined): string | undefined {
  const normalized = pattern?.trim().replace(/\s+/g, ' ').replace(/:\*$/, '*');
  if (!normalized || normalized.startsWith('*')) return 'it allows every command';
  const [first, second] = normalized.split(' ');
  const program = first.replace(/\*$/, '');
  const open = second === undefined || second.startsWith('*') || first.endsWith('*');
  if (open && SUBCOMMAND_PROGRAMS.has(program)) {
    const example = RISKY_SUBCOMMAND[program];
    return `it allows every ${program} subcommand${example ? ` (${program} ${example} too)` : ''}`;
  }
  if (open && COMMAND_RUNNERS.has(program)) return `${program} runs whatever command it is given`;
  const star = normalized.indexOf('*');
  const last = normalized.length - 1;
  if (star >= 0 && (star < last || !/[\w: ]/.test(normalized[last - 1] ?? ' ')))
    return 'its * matches any characters there, spaces, / and .. included';
  return undefined;
}

/** Warnings for allow rules of the tools in `commandTools` that are broader than they look. */
export function broadAllowWarnings(
  rules: readonly PermissionRule[],
  commandTools: readonly string[],
): string[] {
  const warnings: string[] = [];
  for (const rule of rules) {
    if (rule.action !== 'allow' || !commandTools.includes(rule.tool)) continue;
    const reason = broadAllowReason(rule.pattern);
    const written = rule.pattern === undefined ? rule.tool : `${rule.tool}(${rule.pattern})`;
    if (reason) warnings.push(`${rule.source}: allow rule ${written} is broader than it looks: ${reason}`);
  }
  return warnings;
}
