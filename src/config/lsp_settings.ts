import type { LanguageServerSetting, SettingsLayer } from './types.js';

export type { LanguageServerSetting };

/** Settings `lsp`: the server table over the built-ins, and the diagnostics lathe adds to edits. */
export interface LspSettings {
  servers: Record<string, LanguageServerSetting>;
  diagnosticsAfterEdit: boolean;
  /** How long an edit waits for the file's diagnostics: on a server just started, and on one running. */
  coldTimeoutMs: number;
  warmTimeoutMs: number;
  /**
   * How long an edit's result waits for a warm server's diagnostics before it says
   * `diagnostics: pending` and they follow with a later result (a server still starting: none).
   */
  editWaitMs: number;
}

export const DEFAULT_LSP_SETTINGS: LspSettings = {
  servers: {},
  diagnosticsAfterEdit: true,
  coldTimeoutMs: 15_000,
  warmTimeoutMs: 3_000,
  editWaitMs: 300,
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');

const SERVER_KEYS: Record<string, (value: unknown) => boolean> = {
  command: (v) => typeof v === 'string' && v.length > 0,
  args: isStringList,
  languages: isStringList,
  extensions: isStringList,
  rootMarkers: isStringList,
  initializationOptions: () => true,
  enabled: (v) => typeof v === 'boolean',
};

/** What is wrong with a layer's `lsp` section, one line per key (empty: nothing). */
export function lspSettingProblems(value: unknown): string[] {
  if (!isObject(value)) return ['"lsp" must be an object'];
  const problems: string[] = [];
  const { servers, diagnosticsAfterEdit, diagnosticsTimeout } = value;
  if (diagnosticsAfterEdit !== undefined && typeof diagnosticsAfterEdit !== 'boolean')
    problems.push('"lsp.diagnosticsAfterEdit" must be true or false');
  if (diagnosticsTimeout !== undefined) {
    const ok =
      isObject(diagnosticsTimeout) &&
      Object.entries(diagnosticsTimeout).every(
        ([k, v]) => (k === 'cold' || k === 'warm' || k === 'edit') && typeof v === 'number' && v > 0,
      );
    if (!ok)
      problems.push('"lsp.diagnosticsTimeout" must be {"cold": seconds, "warm": seconds, "edit": seconds}');
  }
  if (servers !== undefined) {
    if (!isObject(servers)) return [...problems, '"lsp.servers" must be an object of servers by name'];
    for (const [name, server] of Object.entries(servers)) {
      if (!isObject(server)) {
        problems.push(`"lsp.servers.${name}" must be an object`);
        continue;
      }
      for (const [key, item] of Object.entries(server)) {
        const check = SERVER_KEYS[key];
        if (!check)
          problems.push(
            `"lsp.servers.${name}.${key}" is not known (use ${Object.keys(SERVER_KEYS).join(', ')})`,
          );
        else if (!check(item)) problems.push(`"lsp.servers.${name}.${key}" has the wrong type`);
      }
    }
  }
  return problems;
}

/** Applies one (checked) layer's `lsp` section: servers merge by name, key by key. */
export function mergeLspSettings(resolved: LspSettings, layer: SettingsLayer): void {
  const lsp = layer.lsp;
  if (!isObject(lsp)) return;
  if (typeof lsp.diagnosticsAfterEdit === 'boolean') resolved.diagnosticsAfterEdit = lsp.diagnosticsAfterEdit;
  const timeout = lsp.diagnosticsTimeout;
  if (isObject(timeout)) {
    if (typeof timeout.cold === 'number' && timeout.cold > 0) resolved.coldTimeoutMs = timeout.cold * 1000;
    if (typeof timeout.warm === 'number' && timeout.warm > 0) resolved.warmTimeoutMs = timeout.warm * 1000;
    if (typeof timeout.edit === 'number' && timeout.edit > 0) resolved.editWaitMs = timeout.edit * 1000;
  }
  if (isObject(lsp.servers)) {
    const servers = { ...resolved.servers };
    for (const [name, server] of Object.entries(lsp.servers)) {
      if (isObject(server)) servers[name] = { ...servers[name], ...(server as LanguageServerSetting) };
    }
    resolved.servers = servers;
  }
}
