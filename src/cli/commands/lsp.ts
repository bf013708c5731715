import { LanguageServers } from '../../lsp/language_servers.js';
import { type CommonOptions, runtimeFromOptions } from './runtime_from_options.js';

/** `lathe lsp status`: every server of the table — found or not, command, version, state. */
export async function lspStatusCommand(opts: CommonOptions): Promise<number> {
  const runtime = runtimeFromOptions(opts);
  const rows = await new LanguageServers({ settings: runtime.settings.lsp }).probedStatus();
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
    if (row.install) process.stdout.write(`  install: ${row.install}\n`);
  }
  const diagnostics = runtime.settings.lsp.diagnosticsAfterEdit ? 'on' : 'off (lsp.diagnosticsAfterEdit)';
  process.stdout.write(`diagnostics after edits: ${diagnostics}\n`);
  return 0;
}
