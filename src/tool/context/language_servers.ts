/**
 * A running language server for one (project root, language), as the code-intelligence tools
 * use it. Requests fail with an Error whose message the model can act on.
 */
export interface LanguageServerHandle {
  /** The server's name in the table (`typescript`, `pyright`). */
  readonly name: string;
  readonly language: string;
  /** The project root it was started in. */
  readonly root: string;
  /**
   * Makes the server see the file as it is on disk (opened, or changed to the new text);
   * returns its URI and the text the server now has.
   */
  sync(file: string): Promise<{ uri: string; text: string }>;
  request<R>(method: string, params: unknown, signal?: AbortSignal): Promise<R>;
  /** What the server can do (its initialize result's `capabilities`). */
  readonly capabilities: Record<string, unknown>;
  /** Whether a file is of a language this server serves. */
  serves(file: string): boolean;
}

/** Why no server answers for a file: none configured, not a source file, or it keeps crashing. */
export interface LanguageServerUnavailable {
  unavailable: string;
  /** The file's language, when it has one. */
  language?: string;
}

/** The line an edit's result ends with, and, while a server is starting, what follows later. */
export interface EditDiagnostics {
  /** `diagnostics: clean`, the errors, `diagnostics: unavailable (why)` or `diagnostics: pending …`. */
  line: string;
  /** With a pending line: the diagnostics once they are in, for a later result or request. */
  later?: Promise<string>;
}

/** The language servers of a process, shared by every runtime in it; `LanguageServers` implements it. */
export interface LanguageServerAccess {
  /** The language of a file, or undefined when no server knows its kind. */
  languageOf(file: string): string | undefined;
  /**
   * The server for a file, started if need be. `progress` hears what the call waits for: the
   * server starting, then each request (`asking typescript-language-server for references…`).
   */
  serverFor(
    file: string,
    options: { workspace: string; signal?: AbortSignal; progress?: (message: string) => void },
  ): Promise<LanguageServerHandle | LanguageServerUnavailable>;
  /**
   * What an edit's result ends with: the files' diagnostics at their new versions, or why there
   * are none; undefined when diagnostics after edits are off or no file has a server. `since`:
   * when the call began (files of a glob-wide edit untouched since are left out). `deliverLater`:
   * a later result can carry what is not in yet, so the edit waits only for a warm server, and
   * briefly; without it, the edit waits for the diagnostics. `progress` hears it when the edit
   * waits (`checking diagnostics…`, a server starting).
   */
  diagnosticsAfterEdit(
    files: readonly string[],
    call: {
      since: number;
      signal: AbortSignal;
      workspace: string;
      deliverLater?: boolean;
      progress?: (message: string) => void;
    },
  ): Promise<EditDiagnostics | undefined>;
  /**
   * The lsp tool's `diagnostics`: one file's at its current text, or (no file) what the running
   * servers have published, errors first, at most 50 items.
   */
  diagnosticsReport(
    file: string | undefined,
    call: { signal: AbortSignal; workspace: string; progress?: (message: string) => void },
  ): Promise<string>;
}
