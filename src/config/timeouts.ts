import type { SettingsLayer } from './types.js';

/** Model request timeouts: the first byte of an answer, then any pause inside its stream. */
export interface ModelTimeouts {
  firstByteMs: number;
  idleMs: number;
}

/** How long runs wait for MCP servers, and the limits of `lathe mcp serve --http` and its callers. */
export interface McpLimits {
  startupTimeoutMs: number;
  sessionIdleTimeoutMs: number;
  maxSessions: number;
  /** Web origins (`https://app.example`) whose pages may call `lathe mcp serve --http`. */
  allowedOrigins: string[];
}

export const DEFAULT_MODEL_TIMEOUTS: ModelTimeouts = { firstByteMs: 60_000, idleMs: 120_000 };
export const DEFAULT_MCP_LIMITS: McpLimits = {
  startupTimeoutMs: 10_000,
  sessionIdleTimeoutMs: 30 * 60_000,
  maxSessions: 32,
  allowedOrigins: [],
};

type Checked<T> = { value: T } | { problem: string };

function seconds(value: unknown): Checked<number> {
  return typeof value === 'number' && Number.isFinite(value) && value > 0
    ? { value: Math.round(value * 1000) }
    : { problem: 'must be a positive number of seconds' };
}

function count(value: unknown): Checked<number> {
  return typeof value === 'number' && Number.isInteger(value) && value > 0
    ? { value }
    : { problem: 'must be a positive whole number' };
}

/** A list of web origins (`scheme://host[:port]`), kept as a browser sends them in `Origin`. */
function origins(value: unknown): Checked<string[]> {
  const originOf = (item: unknown) => {
    try {
      const url = new URL(item as string);
      const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
      return typeof item === 'string' && bare && url.origin !== 'null' ? url.origin : undefined;
    } catch {
      return undefined;
    }
  };
  const found = Array.isArray(value) ? value.map(originOf) : [undefined];
  return found.every((origin) => origin !== undefined)
    ? { value: found as string[] }
    : { problem: 'must be a list of web origins such as "https://app.example" (scheme, host and port)' };
}

/** Reads one key of a section into `target`; a wrong value is a warning and the earlier value stays. */
function take<T, K extends keyof T>(
  target: T,
  key: K,
  check: (value: unknown) => Checked<T[K]>,
  raw: unknown,
  where: string,
  warnings: string[],
): void {
  if (raw === undefined) return;
  const checked = check(raw);
  if ('value' in checked) target[key] = checked.value;
  else warnings.push(`${where} ${checked.problem}`);
}

function section(
  settings: SettingsLayer,
  key: 'modelTimeouts' | 'mcp',
  source: string,
  warnings: string[],
): Record<string, unknown> | undefined {
  const value = settings[key];
  if (value === undefined) return undefined;
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  warnings.push(`${source}: ${key} must be an object`);
  return undefined;
}

/** Applies one settings layer's `modelTimeouts` and `mcp` sections (values in seconds). */
export function mergeTimeouts(
  resolved: { modelTimeouts: ModelTimeouts; mcp: McpLimits },
  source: string,
  settings: SettingsLayer,
  warnings: string[],
): void {
  const model = section(settings, 'modelTimeouts', source, warnings);
  if (model) {
    const at = (k: string) => `${source}: modelTimeouts.${k}`;
    take(resolved.modelTimeouts, 'firstByteMs', seconds, model.firstByte, at('firstByte'), warnings);
    take(resolved.modelTimeouts, 'idleMs', seconds, model.idle, at('idle'), warnings);
  }
  const mcp = section(settings, 'mcp', source, warnings);
  if (mcp) {
    const at = (k: string) => `${source}: mcp.${k}`;
    take(resolved.mcp, 'startupTimeoutMs', seconds, mcp.startupTimeout, at('startupTimeout'), warnings);
    take(
      resolved.mcp,
      'sessionIdleTimeoutMs',
      seconds,
      mcp.sessionIdleTimeout,
      at('sessionIdleTimeout'),
      warnings,
    );
    take(resolved.mcp, 'maxSessions', count, mcp.maxSessions, at('maxSessions'), warnings);
    take(resolved.mcp, 'allowedOrigins', origins, mcp.allowedOrigins, at('allowedOrigins'), warnings);
  }
}
