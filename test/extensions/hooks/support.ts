import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { attachMcp } from '../../../src/mcp/attach.js';
import type { McpHub } from '../../../src/mcp/hub.js';
import { createRuntime, type Runtime, type RuntimeOptions } from '../../../src/runtime/create_runtime.js';
import type { ToolResult } from '../../../src/tool/types.js';
import { tempDir } from '../../support/runtime_fixtures.js';

/** The MCP server whose one tool, `touch {path}`, creates a file. */
export const TOUCH_SERVER = fileURLToPath(new URL('../../fixtures/hooks/touch_server.mjs', import.meta.url));

/** A hook command as settings hold it. */
export interface HookSpec {
  command: string;
  timeout?: number;
  failClosed?: boolean;
}

/** Writes `.agents/settings.json` with these hooks (and any other settings) into a workspace. */
export function writeHookSettings(workspace: string, hooks: Record<string, unknown>, other = {}): void {
  mkdirSync(join(workspace, '.agents'), { recursive: true });
  writeFileSync(join(workspace, '.agents', 'settings.json'), JSON.stringify({ ...other, hooks }, null, 2));
}

/** One PreToolUse group over `matcher` running `hook`. */
export const preToolUse = (matcher: string, hook: HookSpec) => ({
  PreToolUse: [{ matcher, hooks: [{ type: 'command', ...hook }] }],
});

const hubs: McpHub[] = [];
const runtimes: Runtime[] = [];

/** Ends what `hookedRuntime` started (MCP servers, runtimes). */
export async function closeHookedRuntimes(): Promise<void> {
  await Promise.all(runtimes.splice(0).map((r) => r.dispose()));
  await Promise.all(hubs.splice(0).map((h) => h.close()));
}

/**
 * A trusted runtime over `workspace` (its `.agents/settings.json` as written), with the touch MCP
 * server attached when `touchServer`; `lines` collects what the hooks say to the user.
 */
export async function hookedRuntime(
  workspace: string,
  { touchServer, ...options }: Omit<RuntimeOptions, 'mcp'> & { touchServer?: boolean } = {},
): Promise<{ runtime: Runtime; lines: string[] }> {
  if (touchServer) {
    mkdirSync(join(workspace, '.agents', 'mcp'), { recursive: true });
    writeFileSync(
      join(workspace, '.agents', 'mcp', 'touch.json'),
      JSON.stringify({ mcpServers: { touchy: { command: process.execPath, args: [TOUCH_SERVER] } } }),
    );
  }
  const runtime = createRuntime({
    cwd: workspace,
    documentsRoot: tempDir('lathe-home-'),
    env: { NODE_ENV: 'test', PATH: process.env.PATH },
    trust: true,
    yolo: true,
    ...options,
  });
  runtimes.push(runtime);
  const lines: string[] = [];
  runtime.hooks.set.onWarning((line) => lines.push(line));
  if (touchServer) {
    const hub = await attachMcp(runtime, { report: () => {}, env: {} });
    if (!hub) throw new Error('no MCP hub');
    hubs.push(hub);
    await hub.connectAll();
  }
  return { runtime, lines };
}

/** Runs one call as a child agent of the runtime's would (its own runtime, tagged). */
export async function runAsChild(runtime: Runtime, name: string, input: unknown): Promise<ToolResult> {
  const child = runtime.child({
    tag: { id: 'child-1', name: 'helper', type: 'general', depth: 1 },
    keepTool: () => true,
  });
  const execution = child.createExecution({});
  execution.add({ id: 'child_call_1', name, input });
  execution.close();
  for await (const { result } of execution.results()) return result;
  throw new Error('no result');
}
