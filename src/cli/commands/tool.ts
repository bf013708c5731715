import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findTool } from '../../tool/pool.js';
import type { ToolResult } from '../../tool/types.js';
import { type CommonOptions, connectMcpServers, runtimeFromOptions } from './runtime_from_options.js';

/** mkdtemp adds a random suffix: a fresh folder only this user can enter. */
const SCRATCH_PREFIX = 'lathe-tool-';

function readInput(text: string): string {
  return text === '-' ? readFileSync(0, 'utf8') : text;
}

function printable(result: ToolResult): string {
  const images = (result.images ?? []).map(
    (image) => `[image ${image.mediaType}, ${Math.round((image.data.length * 3) / 4 / 1024)} KB]`,
  );
  return [result.text, ...images].join('\n');
}

/**
 * `lathe tool NAME --input JSON`: one call through the whole pipeline; exit 1 when it is an
 * error. It exits when the call is done: background commands and tasks the call started are
 * ended, each with a line on stderr.
 */
export async function toolCommand(name: string, opts: CommonOptions & { input: string }): Promise<number> {
  // One call is no session: its files go to a scratch folder, kept only when the result points into it.
  const scratch = mkdtempSync(join(tmpdir(), SCRATCH_PREFIX));
  // The call is the user's, typed in their own shell: they see the file they edit, no read first.
  const runtime = runtimeFromOptions(opts, { sessionDir: scratch, callsFromUserShell: true });
  // A tool of the pool without MCP needs no server: none is started.
  const mcp = findTool(runtime.pool, name) ? undefined : await connectMcpServers(runtime);
  const result = await runtime.runTool(name, readInput(opts.input)).finally(() => mcp?.close());
  const out = opts.json ? JSON.stringify(result, null, 2) : printable(result);
  process.stdout.write(out.endsWith('\n') ? out : `${out}\n`);
  if (runtime.sandboxRefusals > 0) {
    const notice = await runtime.sandboxNotice();
    if (notice) process.stderr.write(`lathe: ${notice}\n`);
  }
  for (const work of runtime.runningBackgroundWork()) {
    const output = work.outputPath ? `; its output so far: ${work.outputPath}` : '';
    process.stderr.write(
      `lathe: ended background ${work.kind} ${work.id} (${work.command}) as lathe tool exits${output}\n`,
    );
  }
  await runtime.dispose();
  if (!out.includes(scratch)) rmSync(scratch, { recursive: true, force: true });
  return result.isError ? 1 : 0;
}
