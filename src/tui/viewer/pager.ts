import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { DISABLE_BRACKETED_PASTE, ENABLE_BRACKETED_PASTE } from '../input/keys.js';
import type { TerminalScreen } from './terminal_screen.js';

const SHOW_CURSOR = '\x1b[?25h';
const HIDE_CURSOR = '\x1b[?25l';

/** What the UI lets go of while the pager has the terminal, and takes back after. */
export interface TerminalInput {
  release(): void;
  takeBack(): void;
}

const ignore = () => undefined;

/**
 * Gives the terminal to the user's pager (`$PAGER`, run by the shell as git runs it) with the
 * whole result on its standard input, streamed from its file, and takes it back once the pager
 * exits: the pager draws on the alternate screen, so the conversation comes back as it was.
 * Ctrl+C belongs to the pager meanwhile (lathe ignores the SIGINT it sends the whole group);
 * Ctrl+Z stops both, as it stops git and its pager. Resolves with a line to show when it failed.
 */
export async function runPager(
  command: string,
  result: { text: string; savedPath?: string },
  screen: TerminalScreen,
  input: TerminalInput,
): Promise<string | undefined> {
  input.release();
  screen.enterFullScreen();
  screen.write(DISABLE_BRACKETED_PASTE + SHOW_CURSOR);
  process.on('SIGINT', ignore);
  try {
    const child = spawn(command, { shell: true, stdio: ['pipe', 'inherit', 'inherit'] });
    // A pager that quits before reading it all closes the pipe: that is no error.
    child.stdin.on('error', ignore);
    if (result.savedPath) {
      const file = createReadStream(result.savedPath);
      file.on('error', () => child.stdin.end(result.text));
      file.pipe(child.stdin);
    } else child.stdin.end(result.text);
    const code = await new Promise<number | null | Error>((resolve) => {
      child.on('error', resolve);
      child.on('close', (exit) => resolve(exit));
    });
    if (code instanceof Error) return `The pager ($PAGER=${command}) could not start: ${code.message}`;
    if (code === 127) return `The pager ($PAGER=${command}) was not found`;
    return undefined;
  } finally {
    process.off('SIGINT', ignore);
    screen.write(HIDE_CURSOR + ENABLE_BRACKETED_PASTE);
    screen.leaveFullScreen();
    input.takeBack();
  }
}
