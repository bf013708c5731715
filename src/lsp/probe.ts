import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { collectProcess } from '../util/collect_process.js';
import { ServerConnection } from './server_connection.js';
import type { ServerSpec } from './server_table.js';

/** Whether a server of the table runs here, with its version or why it does not. */
export interface ProbeResult {
  runs: boolean;
  version?: string;
  problem?: string;
}

/** How long a probe may take: a version flag, or the handshake of a server that has none. */
const PROBE_MS = 10_000;

const probes = new Map<string, Promise<ProbeResult>>();

const firstLine = (text: string): string | undefined =>
  text
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '');

/**
 * A server counts as found when it starts, not when a file of its name is on PATH (a rustup
 * proxy without the rust-analyzer component is one): its version flag must succeed, or, for a
 * server without one, the initialize handshake. Bundled servers are known to run. Cached per
 * process, by command line.
 */
export function probeServer(spec: ServerSpec, timeoutMs = PROBE_MS): Promise<ProbeResult> {
  const { command } = spec;
  if (!command) return Promise.resolve({ runs: false, problem: spec.missing ?? 'not found' });
  if (spec.source === 'bundled') return Promise.resolve({ runs: true, version: spec.version });
  const key = [command, ...spec.args, '\0', ...(spec.versionArgs ?? ['(handshake)'])].join(' ');
  let probe = probes.get(key);
  if (!probe) {
    probe = spec.versionArgs
      ? versionProbe(command, spec.versionArgs, timeoutMs)
      : handshakeProbe({ ...spec, command }, timeoutMs);
    probes.set(key, probe);
  }
  return probe;
}

/** Servers probed at once: each is a process start, and a machine of two cores runs them slowly side by side. */
const PROBES_AT_ONCE = 4;

/** Every spec probed, a few at a time; results in the specs' order. */
export async function probeAll(specs: readonly ServerSpec[]): Promise<ProbeResult[]> {
  const results: ProbeResult[] = new Array(specs.length);
  let next = 0;
  const worker = async () => {
    while (next < specs.length) {
      const i = next++;
      results[i] = await probeServer(specs[i]);
    }
  };
  await Promise.all(Array.from({ length: PROBES_AT_ONCE }, worker));
  return results;
}

async function versionProbe(command: string, args: string[], timeoutMs: number): Promise<ProbeResult> {
  const run = await collectProcess([command, ...args], { timeoutMs });
  const said = firstLine(run.stderr) ?? firstLine(run.stdout);
  if (run.code === 0) return { runs: true, version: firstLine(run.stdout) ?? said };
  const why =
    run.error?.message ?? said ?? (run.code === null ? 'no answer in time' : `exit code ${run.code}`);
  return { runs: false, problem: `${basename(command)} ${args.join(' ')} failed: ${why}` };
}

/** mkdtemp adds a random suffix: a fresh folder only this user can enter. */
const PROBE_FOLDER_PREFIX = 'lathe-lsp-probe-';

/** Starts the server in an empty folder, completes the handshake and ends it. */
async function handshakeProbe(
  spec: ServerSpec & { command: string },
  timeoutMs: number,
): Promise<ProbeResult> {
  const root = mkdtempSync(join(tmpdir(), PROBE_FOLDER_PREFIX));
  try {
    const connection = await ServerConnection.start({
      spec,
      root,
      initTimeoutMs: timeoutMs,
      requestTimeoutMs: timeoutMs,
      onCrash: () => undefined,
    });
    connection.kill();
    return { runs: true, ...(connection.serverVersion ? { version: connection.serverVersion } : {}) };
  } catch (error) {
    return { runs: false, problem: (error as Error).message };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
