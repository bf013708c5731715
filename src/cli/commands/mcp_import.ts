import { isFolderTrusted } from '../../config/trust.js';
import { parseServer, readMcpServers } from '../../mcp/config.js';
import { mcpFileFor, writeServerEntry } from '../../mcp/config_file.js';
import type { FoundServer } from '../../mcp/import/entries.js';
import { IMPORT_SOURCES, type ImportSource, readImportSource } from '../../mcp/import/sources.js';
import { runtimePlaces } from '../../runtime/create_runtime.js';

export interface ImportOptions {
  from?: string;
  scope?: string;
  force?: boolean;
  cwd?: string;
  trust?: boolean;
}

interface Io {
  out(text: string): void;
  fail(text: string): number;
}

/** lathe's server names: what another program's name becomes. */
const importedName = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, '_');

/**
 * `lathe mcp import --from PROGRAM`: copies the MCP servers another program keeps into lathe's
 * settings (global, or the workspace with `--scope workspace`), saying what it took and what it
 * skipped; an entry lathe already has is kept unless `--force`.
 */
export function importCommand(opts: ImportOptions, io: Io): number {
  const from = opts.from as ImportSource;
  if (!IMPORT_SOURCES.includes(from)) return io.fail(`mcp import needs --from ${IMPORT_SOURCES.join('|')}`);
  const scope = opts.scope ?? 'global';
  if (scope !== 'global' && scope !== 'workspace') return io.fail('--scope is global or workspace');
  const places = runtimePlaces({ cwd: opts.cwd });
  const workspaceTrusted = opts.trust === true || isFolderTrusted(places.documentsRoot, places.workspace);
  let reading: ReturnType<typeof readImportSource>;
  try {
    reading = readImportSource(from, { workspace: places.workspace, workspaceTrusted });
  } catch (error) {
    return io.fail((error as Error).message);
  }
  for (const file of reading.untrusted)
    io.out(`Not read: ${file} (this folder is not trusted; run \`lathe trust\` or pass --trust)`);
  if (!reading.files.some((f) => f.found)) {
    io.out(
      `No ${from} settings found (looked at ${reading.files.map((f) => f.file).join(', ') || 'nothing'}).`,
    );
    return reading.untrusted.length > 0 ? 1 : 0;
  }
  let failed = false;
  for (const found of reading.servers) {
    try {
      io.out(importOne(found, scope, { ...places, force: opts.force === true }));
    } catch (error) {
      failed = true;
      io.out(`Skipped "${found.name}" (${found.file}): ${(error as Error).message}`);
    }
  }
  if (reading.servers.length === 0) io.out(`No MCP servers in ${from}'s settings.`);
  return failed ? 1 : 0;
}

/** Writes one found server, or says why not; returns the line that says what happened. */
function importOne(
  found: FoundServer,
  scope: 'global' | 'workspace',
  places: { documentsRoot: string; workspace: string; force: boolean },
): string {
  const name = importedName(found.name);
  const from = `"${found.name}" (${found.file})`;
  if ('skipped' in found) return `Skipped ${from}: ${found.skipped}`;
  const file = mcpFileFor(scope, name, places);
  // Checked as loading would, without expanding ${VARS} set only at run time.
  const checked = parseServer(name, found.entry, { source: file, workspace: places.workspace, env: {} });
  if (typeof checked === 'string' && !checked.includes('unset environment variable'))
    return `Skipped ${from}: ${checked.replace(`${file}: server "${name}"`, 'its entry').replace(/^its entry: /, '')}`;
  if (!places.force && name in readMcpServers(file))
    return `Skipped ${from}: lathe already has a server "${name}" in ${file} (--force replaces it)`;
  writeServerEntry(file, name, found.entry);
  const notes = found.notes.length > 0 ? ` (${found.notes.join('; ')})` : '';
  return `Imported ${from} as "${name}" into ${file}${notes}`;
}
