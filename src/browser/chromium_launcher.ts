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

/**
 * The program behind Debian's `chromium` launcher script (`exec $LIBDIR/$APPNAME $CHROMIUM_FLAGS`),
 * else `path` itself. The script checks the CPU, cleans crash reports and sources
 * /etc/chromium.d with a dozen short processes before Chromium starts, and adds desktop switches
 * (extensions, GPU rasterization) a headless browser does not want: starting the program itself
 * skips that work.
 */
export function programBehindLauncher(path: string): string {
  const text = head(path);
  if (!text?.startsWith('#!')) return path;
  const libdir = /^LIBDIR=(\/[^\s$`;]+)$/m.exec(text)?.[1];
  const appname = /^APPNAME=([\w.-]+)$/m.exec(text)?.[1];
  if (!libdir || !appname || !/exec \$LIBDIR\/\$APPNAME\b/.test(text)) return path;
  const program = `${libdir}/${appname}`;
  try {
    accessSync(program, constants.X_OK);
    return program;
  } catch {
    return path;
  }
}
