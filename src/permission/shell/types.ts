/** One shell word after quote removal. */
export interface Word {
  /** The text after quote removal; parts only known at run time keep their source text (`$f`, `*.ts`). */
  value: string;
  /** Part of the word (an expansion, substitution, glob, brace or tilde) is only known at run time. */
  dynamic: boolean;
  /**
   * Text that every word this expands to starts with. Equals `value` for a static word; empty when
   * nothing is known, e.g. an unquoted `a$x` may split into several words that start with anything.
   */
  literalPrefix: string;
}

export interface Redirect {
  /** The operator as written: `>`, `>>`, `>|`, `&>`, `&>>`, `<`, `<&`, `>&`, `>&-`, `<<`, `<<-`, `<<<`. */
  op: string;
  /** The file or descriptor (`1` in `2>&1`); the delimiter of a here-document; empty when closing. */
  target: string;
  /** The descriptor written before the operator (`2` in `2>`), if any. */
  fd?: string;
  /** The target is only known at run time. */
  dynamic: boolean;
}

/** `NAME=value` before a command, on its own, from `env NAME=value`, or a loop / `read` variable. */
export interface Assignment {
  name: string;
  value: string;
  dynamic: boolean;
}

/** One simple command, with the wrappers (`timeout 5`, `xargs -0`, `sudo`) that run it peeled off. */
export interface Subcommand {
  /** The words of the command that actually runs, after quote removal (see `words` for which are dynamic). */
  argv: string[];
  /** `argv` with, for each word, whether it is only known at run time. */
  words: Word[];
  /** The source text of this simple command, redirections included. */
  text: string;
  /** Its redirections, including those of an enclosing `{ …; }`, `( … )` or loop. */
  redirects: Redirect[];
  /** The command name is only known at run time (`$CMD`, `$(which x)`, `*`). */
  dynamic: boolean;
  /** Variables set for (or, with no argv, by) this command. */
  assignments: Assignment[];
  /** The argv of each wrapper peeled off, outermost first: `[['sudo'], ['timeout', '5']]`. */
  wrappers: string[][];
  /** `xargs` appends words read from its input, which may be anything (options included). */
  argsFromInput: boolean;
  /**
   * The source text of each `bash -lc 'SCRIPT'` this command runs inside, outermost first: `text` is
   * then the command as the script writes it.
   */
  outer?: string[];
}

export type ParsedCommand =
  | {
      ok: true;
      subcommands: Subcommand[];
      /**
       * Source text bash evaluates as arithmetic: `$((…))`, `((…))`, array subscripts, `${x:offset}`,
       * `-eq` operands. Bash re-evaluates the value of a variable named there as an expression, and an
       * array subscript in that value can run a command substitution, so any name is a risk.
       */
      arithmetic: string[];
    }
  | { ok: false; reason: string };
