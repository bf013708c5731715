import { readFileSync } from 'node:fs';
import { findTool } from '../../tool/pool.js';
import type { ToolResult } from '../../tool/types.js';
import { type CommonOptions, connectMcpServers, runtimeFromOptions } from './runtime_from_options.js';

function readInput(text: string): string {
  return text === '-' ? readFileSync(0, 'utf8') : text;
}

function printable(result: ToolResult): string {
  const images = (result.images ?? []).map(
    (image) => `[image ${image.mediaType}, ${Math.round((image.data.length * 3) / 4 / 1024)} KB]`,
  );
  return [result.text, ...images].join('\n');
}

/** `lathe tool NAME --input JSON`: one call through the whole pipeline; exit 1 when it is an error. */
export async function toolCommand(name: string, opts: CommonOptions & { input: string }): Promise<number> {
  const runtime = runtimeFromOptions(opts);
  // A tool of the pool without MCP needs no server: none is started.
  const mcp = findTool(runtime.pool, name) ? undefined : await connectMcpServers(runtime);
  const result = await runtime.runTool(name, readInput(opts.input)).finally(() => mcp?.close());
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    const out = printable(result);
    process.stdout.write(out.endsWith('\n') ? out : `${out}\n`);
  }
  return result.isError ? 1 : 0;
}
