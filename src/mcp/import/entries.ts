/** A server found in another program's settings, in lathe's entry shape, or why it was skipped. */
export type FoundServer =
  | { name: string; file: string; entry: Record<string, unknown>; notes: string[] }
  | { name: string; file: string; skipped: string };

type Raw = Record<string, unknown>;

const isObject = (value: unknown): value is Raw =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The fields lathe reads, copied from an entry in the common `mcpServers` shape. */
export function commonEntry(raw: Raw): Raw {
  const entry: Raw = {};
  for (const key of ['type', 'command', 'args', 'cwd', 'env', 'url', 'headers', 'disabled'])
    if (raw[key] !== undefined) entry[key] = raw[key];
  return entry;
}

/** Each entry of an `mcpServers`-shaped object, through `convert` (plain copy by default). */
export function serversOf(
  servers: unknown,
  file: string,
  convert: (raw: Raw, notes: string[]) => Raw | string = (raw) => commonEntry(raw),
): FoundServer[] {
  if (!isObject(servers)) return [];
  return Object.entries(servers).map(([name, raw]): FoundServer => {
    if (!isObject(raw)) return { name, file, skipped: 'the entry is not an object' };
    const notes: string[] = [];
    const entry = convert(raw, notes);
    if (typeof entry === 'string') return { name, file, skipped: entry };
    if (entry.command === undefined && entry.url === undefined)
      return { name, file, skipped: 'it has neither "command" nor "url"' };
    return { name, file, entry, notes };
  });
}

/** Gemini CLI: `httpUrl` is streamable HTTP, `url` SSE, `timeout` milliseconds. */
export function geminiEntry(raw: Raw, notes: string[]): Raw {
  const entry = commonEntry({ ...raw, type: undefined, url: undefined });
  if (typeof raw.httpUrl === 'string') Object.assign(entry, { type: 'http', url: raw.httpUrl });
  else if (typeof raw.url === 'string') Object.assign(entry, { type: 'sse', url: raw.url });
  if (typeof raw.timeout === 'number') entry.timeout = raw.timeout / 1000;
  if (raw.trust === true) notes.push('"trust" (no approval) is not carried over; use autoApprove');
  return entry;
}

/** Codex: `[mcp_servers.NAME]` with `command`/`args`/`env` or `url`, timeouts in seconds. */
export function codexEntry(raw: Raw, notes: string[]): Raw {
  const entry = commonEntry({ ...raw, headers: raw.http_headers });
  if (typeof raw.bearer_token_env_var === 'string')
    entry.headers = { ...(entry.headers as Raw), Authorization: `Bearer \${${raw.bearer_token_env_var}}` };
  if (raw.enabled === false) entry.disabled = true;
  if (typeof raw.tool_timeout_sec === 'number') entry.timeout = raw.tool_timeout_sec;
  if (isObject(raw.env_http_headers)) notes.push('"env_http_headers" is not carried over');
  return entry;
}

/**
 * VS Code: `servers` with `type` stdio/http/sse. `${input:ID}` (a value VS Code asks for) becomes
 * `${ID}`, read from the environment, and is said so; `envFile` is not read.
 */
export function vscodeEntry(raw: Raw, notes: string[]): Raw | string {
  const entry = commonEntry(raw);
  if (entry.type === 'stdio') delete entry.type;
  const inputs = new Set<string>();
  const text = JSON.stringify(entry).replace(/\$\{input:([^}]+)\}/g, (_all, id: string) => {
    const variable = id.replace(/[^A-Za-z0-9_]/g, '_').toUpperCase();
    inputs.add(`\${input:${id}} is \${${variable}}`);
    return `\${${variable}}`;
  });
  if (inputs.size > 0) notes.push(`${[...inputs].join(', ')}: set it in the environment`);
  if (raw.envFile !== undefined) notes.push('"envFile" is not read; put its variables in "env"');
  return JSON.parse(text) as Raw;
}
