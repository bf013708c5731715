import { LanguageServers, type ServerStatus } from '../../lsp/language_servers.js';
import { versionOf } from '../doctor/check.js';
import { type CommonOptions, runtimeFromOptions } from './runtime_from_options.js';

/** A server found on PATH says its version when asked; bundled ones know theirs already. */
async function withVersion(row: ServerStatus, command: string | undefined): Promise<ServerStatus> {
  if (row.version || !command) return row;
  const version = await versionOf(command, ['--version'], 3_000);
  return version ? { ...row, version } : row;
}

/** `lathe lsp status`: every server of the table — found or not, command, version, state. */
export async function lspStatusCommand(opts: CommonOptions): Promise<number> {
  const runtime = runtimeFromOptions(opts);
  const servers = new LanguageServers({ settings: runtime.settings.lsp });
  const rows = await Promise.all(
    servers.status().map((row) => withVersion(row, servers.table.find((s) => s.name === row.name)?.command)),
  );
  await runtime.dispose();
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  for (const row of rows) {
    const head = `${row.name} (${row.languages.join(', ')}): ${row.found ? 'found' : 'not found'}`;
    process.stdout.write(`${head}\n`);
    if (row.command) process.stdout.write(`  command: ${row.command}\n`);
    if (row.version) process.stdout.write(`  version: ${row.version}\n`);
    process.stdout.write(`  state: ${row.state}${row.problem ? ` (${row.problem})` : ''}\n`);
  }
  const diagnostics = runtime.settings.lsp.diagnosticsAfterEdit ? 'on' : 'off (lsp.diagnosticsAfterEdit)';
  process.stdout.write(`diagnostics after edits: ${diagnostics}\n`);
  return 0;
}
