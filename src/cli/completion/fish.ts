import { type CompletedCommand, type CompletedOption, quoted } from './spec.js';

/** A fish function printing, one a line, the words of a `switch` on the command's path. */
function table(name: string, rows: [string, string[]][]): string {
  const cases = rows
    .filter(([, words]) => words.length > 0)
    .map(
      ([key, words]) =>
        `        case ${quoted(key)}\n            printf '%s\\n' ${words.map(quoted).join(' ')}`,
    );
  return [`function ${name}`, '    switch "$argv[1]"', ...cases, '    end', 'end'].join('\n');
}

const WALK = `# The command the words before the cursor name ('' is lathe itself).
function __lathe_path
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l p ''
    set -l skip 0
    for word in $tokens
        if test $skip = 1
            set skip 0
            continue
        end
        if string match -q -- '-*=*' $word
            continue
        else if string match -q -- '-*' $word
            contains -- $word (__lathe_value_options $p); and set skip 1
        else if contains -- $word (__lathe_subcommands $p)
            set p (string trim -- "$p $word")
        end
    end
    echo $p
end

function __lathe_at
    set -l p (__lathe_path)
    test "$p" = "$argv[1]"
end`;

function optionLine(path: string, option: CompletedOption): string {
  const parts = [`complete -c lathe -n ${quoted(`__lathe_at ${quoted(path)}`)}`];
  for (const name of option.names)
    parts.push(name.startsWith('--') ? `-l ${name.slice(2)}` : `-s ${name.slice(1)}`);
  if (option.takesValue && option.values.length > 0)
    parts.push(`-x -a ${quoted(option.values.map(quoted).join(' '))}`);
  else if (option.takesValue) parts.push('-r -F');
  return parts.join(' ');
}

/** `lathe completion fish`: save as ~/.config/fish/completions/lathe.fish. */
export function fishScript(spec: CompletedCommand[]): string {
  const key = (command: CompletedCommand) => command.path.join(' ');
  const lines = spec.flatMap((command) => {
    const at = quoted(`__lathe_at ${quoted(key(command))}`);
    const subcommands =
      command.subcommands.length > 0
        ? [`complete -c lathe -n ${at} -a ${quoted(command.subcommands.map(quoted).join(' '))}`]
        : [];
    return [...subcommands, ...command.options.map((option) => optionLine(key(command), option))];
  });
  return `# lathe completion for fish: lathe completion fish > ~/.config/fish/completions/lathe.fish
${table(
  '__lathe_subcommands',
  spec.map((command) => [key(command), command.subcommands]),
)}

${table(
  '__lathe_value_options',
  spec.map((command) => [
    key(command),
    command.options.filter((option) => option.takesValue).flatMap((option) => option.names),
  ]),
)}

${WALK}

complete -c lathe -f
${lines.join('\n')}
`;
}
