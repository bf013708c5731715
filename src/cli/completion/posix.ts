import { type CompletedCommand, quoted } from './spec.js';

/**
 * The part of the bash and zsh scripts both shells read alike: the command tree as `case`
 * tables, the walk that finds which command the words typed so far name, and the words to
 * offer at the cursor.
 */

function table(name: string, rows: [string, string[]][]): string {
  const cases = rows
    .filter(([, words]) => words.length > 0)
    .map(([key, words]) => `    ${quoted(key)}) echo ${words.map(quoted).join(' ')} ;;`);
  return [`${name}() {`, '  case "$1" in', ...cases, '  esac', '}'].join('\n');
}

function tables(spec: CompletedCommand[]): string {
  const key = (command: CompletedCommand) => command.path.join(' ');
  const valueRows = spec.flatMap((command) =>
    command.options.flatMap((option) =>
      option.names.map((name): [string, string[]] => [`${key(command)}|${name}`, option.values]),
    ),
  );
  return [
    table(
      '__lathe_subcommands',
      spec.map((command) => [key(command), command.subcommands]),
    ),
    table(
      '__lathe_options',
      spec.map((command) => [key(command), command.options.flatMap((option) => option.names)]),
    ),
    table(
      '__lathe_value_options',
      spec.map((command) => [
        key(command),
        command.options.filter((option) => option.takesValue).flatMap((option) => option.names),
      ]),
    ),
    table('__lathe_values', valueRows),
  ].join('\n\n');
}

const WALK = `# Sets __lathe_cmd to the command the words (lathe's arguments before the cursor) name.
__lathe_path() {
  local word p='' skip=0
  for word in "$@"; do
    if [ "$skip" = 1 ]; then skip=0; continue; fi
    case "$word" in
      -*=*) ;;
      -*) case " $(__lathe_value_options "$p") " in *" $word "*) skip=1 ;; esac ;;
      *) case " $(__lathe_subcommands "$p") " in *" $word "*) p="\${p:+$p }$word" ;; esac ;;
    esac
  done
  __lathe_cmd="$p"
}

# The words to offer for the word at the cursor; fails when a file name is wanted instead.
__lathe_candidates() {
  case " $(__lathe_value_options "$1") " in
    *" $2 "*)
      local values
      values="$(__lathe_values "$1|$2")"
      [ -n "$values" ] || return 1
      echo "$values"
      return 0 ;;
  esac
  case "$3" in
    -*) __lathe_options "$1" ;;
    *) __lathe_subcommands "$1" ;;
  esac
}`;

export function posixPart(spec: CompletedCommand[]): string {
  return `${tables(spec)}\n\n${WALK}\n`;
}
