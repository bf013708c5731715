import type { AgentContext, ClientCapabilities } from '@agentclientprotocol/sdk';
import type { EditorAccess, EditorCommand, EditorCommandResult } from '../tool/context/editor.js';

export interface ClientBackendOptions {
  /** A command's terminal was created in the client: show it in the tool call that runs it. */
  onTerminal?(terminalId: string, command: EditorCommand): void;
}

/**
 * The editor's side of a session as the SDK's `editor` option: the client's methods it offered
 * in `initialize` — `fs/read_text_file` (its unsaved buffers), `fs/write_text_file` (edits land
 * in the editor), `terminal/*` (commands run in its terminals). Undefined when it offered none:
 * lathe then reads and writes the disk and runs its own processes.
 */
export function clientBackends(
  connection: Pick<AgentContext, 'request' | 'createTerminal'>,
  sessionId: string,
  caps: ClientCapabilities | undefined,
  options: ClientBackendOptions = {},
): EditorAccess | undefined {
  const editor: EditorAccess = {};
  if (caps?.fs?.readTextFile) {
    // A file the client cannot read (one that does not exist) is read from disk, which says why.
    editor.readTextFile = (path) =>
      connection.request('fs/read_text_file', { sessionId, path }).then(
        (response) => response.content,
        () => undefined,
      );
  }
  if (caps?.fs?.writeTextFile) {
    editor.writeTextFile = async (path, content) => {
      await connection.request('fs/write_text_file', { sessionId, path, content });
    };
  }
  if (caps?.terminal) {
    editor.terminal = { run: (command) => runInClientTerminal(connection, sessionId, command, options) };
  }
  return Object.keys(editor).length > 0 ? editor : undefined;
}

/**
 * One command in a client terminal: created, waited for (killed when the command's signal
 * aborts: timeout, interrupt, kill_command), its output taken, and the terminal released.
 */
async function runInClientTerminal(
  connection: Pick<AgentContext, 'createTerminal'>,
  sessionId: string,
  command: EditorCommand,
  options: ClientBackendOptions,
): Promise<EditorCommandResult> {
  const [program, ...args] = command.argv;
  const terminal = await connection.createTerminal({
    sessionId,
    command: program,
    args,
    cwd: command.cwd,
    ...(command.outputLimit !== undefined ? { outputByteLimit: command.outputLimit } : {}),
  });
  const kill = () => void terminal.kill().catch(() => undefined);
  try {
    options.onTerminal?.(terminal.id, command);
    command.signal.addEventListener('abort', kill, { once: true });
    if (command.signal.aborted) kill();
    const exit = await terminal.waitForExit();
    const { output, truncated } = await terminal.currentOutput();
    return { output, truncated, exitCode: exit.exitCode ?? null, signal: exit.signal ?? null };
  } finally {
    command.signal.removeEventListener('abort', kill);
    await terminal.release().catch(() => undefined);
  }
}
