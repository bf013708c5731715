/**
 * Files and commands through the program that drives lathe (an editor): the text of its unsaved
 * buffers, edits that land in them, commands in its terminal. Each part is optional; without
 * it lathe uses the disk and its own processes. Permissions, protected paths and the sandbox
 * are decided by lathe before any of these is called.
 */
export interface EditorAccess {
  /** The text the program holds for an absolute path (an unsaved buffer); undefined: lathe reads the disk. */
  readTextFile?(path: string): Promise<string | undefined>;
  /** Writes the whole text of an absolute path through the program (creating the file when missing). */
  writeTextFile?(path: string, content: string): Promise<void>;
  /** Runs execute_command's commands in the program's terminal instead of a process of lathe's. */
  terminal?: EditorTerminal;
}

export interface EditorTerminal {
  /** Runs the command to its end (or until `signal` aborts it: then it must be stopped). */
  run(command: EditorCommand): Promise<EditorCommandResult>;
}

export interface EditorCommand {
  /** What to start: the shell, wrapped in lathe's sandbox when commands run sandboxed. */
  argv: string[];
  /** The command line the model gave, to show. */
  command: string;
  /** Absolute folder it runs in. */
  cwd: string;
  /** Aborted on timeout, interrupt or kill_command. */
  signal: AbortSignal;
  /** Bytes of output worth keeping; past it the program may drop the oldest. */
  outputLimit?: number;
  /** The tool call that runs it, so a client can show the terminal in that call. */
  toolUseId?: string;
}

export interface EditorCommandResult {
  /** The output (stdout and stderr as the terminal shows them). */
  output: string;
  /** Null when a signal ended it. */
  exitCode: number | null;
  signal?: string | null;
  /** The program dropped the start of the output (past `outputLimit`). */
  truncated: boolean;
}
