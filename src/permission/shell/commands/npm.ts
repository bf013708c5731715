import { type CommandCheck, parseStrict } from '../options.js';

const NPM_LIST = ['ls', 'list', 'll', 'la'];
const NPM_VIEW = ['view', 'v', 'info', 'show'];

/**
 * Only `npm ls`, `npm view` and `npm --version`, with a few output options. Most npm commands run
 * package scripts or write node_modules; options such as --cache or --logs-dir choose where npm writes.
 */
export const checkNpm: CommandCheck = (args) => {
  if (args.length === 1 && !args[0].dynamic && ['--version', '-v'].includes(args[0].value)) return undefined;
  const [subcommand, ...rest] = args;
  if (!subcommand || subcommand.dynamic) return 'npm without a known subcommand';
  if (!NPM_LIST.includes(subcommand.value) && !NPM_VIEW.includes(subcommand.value)) {
    return `npm ${subcommand.value} is not read-only`;
  }
  const parsed = parseStrict(rest, {
    flags: 'aglp',
    longFlags: [
      '--json',
      '--long',
      '--all',
      '--parseable',
      '--global',
      '--link',
      '--production',
      '--dev',
      '--unicode',
    ],
    longValued: ['--depth', '--omit', '--include', '--workspace'],
    optionsAnywhere: true,
  });
  return 'error' in parsed ? `npm: ${parsed.error}` : undefined;
};
