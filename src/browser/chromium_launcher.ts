import { accessSync, closeSync, constants, openSync, readSync } from 'node:fs';

/** Launcher scripts are a few kilobytes; a larger file is not one. */
const SCRIPT_BYTES = 64 * 1024;

function head(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(SCRIPT_BYTES);
    const read = readSync(fd, buffer, 0, SCRIPT_BYTES, 0);
    return read < SCRIPT_BYTES ? buffer.subarray(0, read).toString('utf8') : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The program a launcher runs, when it runs one named by an absolute path and nothing else. */
function programOf(text: string): string | undefined {
  // Debian's `chromium`: it sets LIBDIR and APPNAME, then `exec $LIBDIR/$APPNAME $CHROMIUM_FLAGS "$@"`.
  const libdir = /^LIBDIR=(\/[^\s$`;]+)$/m.exec(text)?.[1];
  const appname = /^APPNAME=([\w.-]+)$/m.exec(text)?.[1];
  if (libdir && appname && /exec \$LIBDIR\/\$APPNAME\b/.test(text)) return `${libdir}/${appname}`;
  // Debian's `chromium-headless-shell`: one line, `/usr/lib/chromium/chromium-headless-shell "$@"`.
  const lines = text
    .split('\n')
    .slice(1)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const only = lines.length === 1 ? /^(?:exec\s+)?(\/[\w./-]+)\s+"\$@"$/.exec(lines[0]) : null;
  return only?.[1];
}

/**
 * The program behind a Debian launcher script, else `path` itself. `chromium`'s script checks
 * the CPU, cleans crash reports and sources /etc/chromium.d with a dozen short processes before
 * Chromium starts, and adds desktop switches (extensions, GPU rasterization) a headless browser
 * does not want: starting the program itself skips that work.
 */
export function programBehindLauncher(path: string): string {
  const text = head(path);
  if (!text?.startsWith('#!')) return path;
  const program = programOf(text);
  if (!program) return path;
  try {
    accessSync(program, constants.X_OK);
    return program;
  } catch {
    return path;
  }
}
