import type { McpServerConfig } from './config.js';
import { McpConnection } from './connection.js';

export interface ServerProbe {
  name: string;
  transport: string;
  state: 'connected' | 'failed' | 'disabled';
  error?: string;
  tools: string[];
  /** From start to tools listed. */
  connectMs?: number;
  /** Median of a few `ping` round trips. */
  roundTripMs?: number;
  source: string;
}

const ROUND_TRIPS = 5;

/** Connects to one server, lists its tools and (optionally) times round trips; always closes it. */
export async function probeServer(
  config: McpServerConfig,
  options: { roundTrips?: boolean; workspace?: string } = {},
): Promise<ServerProbe> {
  const base = {
    name: config.name,
    transport: config.transport,
    source: config.source,
    tools: [] as string[],
  };
  if (config.disabled) return { ...base, state: 'disabled' };
  const connection = new McpConnection(config, { onChange: () => {} }, { workspace: options.workspace });
  const started = performance.now();
  try {
    await connection.connect();
    if (connection.state !== 'connected') return { ...base, state: 'failed', error: connection.error };
    const connectMs = performance.now() - started;
    const tools = connection.tools.map((t) => t.name);
    let roundTripMs: number | undefined;
    if (options.roundTrips) {
      const times: number[] = [];
      for (let i = 0; i < ROUND_TRIPS; i++) {
        const t = performance.now();
        await connection.ping();
        times.push(performance.now() - t);
      }
      roundTripMs = times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
    }
    return { ...base, state: 'connected', tools, connectMs, roundTripMs };
  } catch (error) {
    return { ...base, state: 'failed', error: (error as Error).message };
  } finally {
    await connection.close();
  }
}
