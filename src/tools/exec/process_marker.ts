import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';

/**
 * A command's descendants can leave its process group (`setsid`, a double fork), so the group
 * alone does not find them. Every command is started with an environment variable of its own,
 * which its descendants inherit; at the end the processes that carry it are found in
 * `/proc/PID/environ` and ended too. A variable per command (not one shared name with a value)
 * keeps a nested command's processes marked by every command around it.
 */
export interface ProcessMarker {
  /** The variable to add to the command's environment. */
  readonly name: string;
  /** The pids of live processes that carry the variable. */
  find(): Promise<number[]>;
  /** Signals every process that carries the variable, until none is left or `rounds` is spent. */
  signal(signal: NodeJS.Signals, rounds?: number): Promise<void>;
}

const MARKER_PREFIX = 'LATHE_COMMAND_';

export function newProcessMarker(): ProcessMarker {
  const name = `${MARKER_PREFIX}${randomBytes(8).toString('hex')}`;
  const needle = Buffer.from(`${name}=`);
  const find = async (): Promise<number[]> => {
    if (process.platform !== 'linux') return [];
    let entries: string[];
    try {
      entries = await readdir('/proc');
    } catch {
      return [];
    }
    const pids = entries.filter((entry) => /^\d+$/.test(entry)).map(Number);
    const carriers = await Promise.all(
      pids.map(async (pid) => {
        if (pid === process.pid) return undefined;
        try {
          const environ = await readFile(`/proc/${pid}/environ`);
          return carries(environ, needle) ? pid : undefined;
        } catch {
          return undefined; // gone, or not ours to read
        }
      }),
    );
    return carriers.filter((pid) => pid !== undefined);
  };
  return {
    name,
    find,
    async signal(signal, rounds = 3) {
      // A process may fork between the scan and the signal: look again until nothing is left.
      for (let round = 0; round < rounds; round++) {
        const pids = await find();
        if (pids.length === 0) return;
        for (const pid of pids) {
          try {
            process.kill(pid, signal);
          } catch {
            // already gone
          }
        }
      }
    },
  };
}

/** Whether a NUL-separated environment block holds `NAME=` as one of its entries. */
function carries(environ: Buffer, needle: Buffer): boolean {
  let at = environ.indexOf(needle);
  while (at !== -1) {
    if (at === 0 || environ[at - 1] === 0) return true;
    at = environ.indexOf(needle, at + 1);
  }
  return false;
}
