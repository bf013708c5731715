import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { McpServerConfig } from '../../../src/mcp/config.js';
import { parseServer } from '../../../src/mcp/config.js';
import { freePort } from '../ports.js';

/** The misbehaving test server (stdio): crashes, hangs, slow answers, images, huge results. */
export const MISBEHAVING_SERVER = fileURLToPath(new URL('./misbehaving_server.mjs', import.meta.url));

/** The lively test server (stdio): lists that change, progress, cancellation, logging, a prompt and a resource. */
export const LIVELY_SERVER = fileURLToPath(new URL('./lively_server.mjs', import.meta.url));

/** The asking test server (stdio): tools that ask the user through elicitation, a form and a link. */
export const ASKING_SERVER = fileURLToPath(new URL('./asking_server.mjs', import.meta.url));

/** `@modelcontextprotocol/server-everything`'s entry point, run with `node` (no npx). */
export const EVERYTHING_SERVER = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
);

/** A server config as `loadMcpConfig` would make it. */
export function serverConfig(name: string, entry: Record<string, unknown>): McpServerConfig {
  const parsed = parseServer(name, entry, { source: 'test', workspace: process.cwd(), env: process.env });
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
}

export const misbehaving = (name = 'bad', extra: Record<string, unknown> = {}) =>
  serverConfig(name, { command: process.execPath, args: [MISBEHAVING_SERVER], ...extra });

export const everythingStdio = (name = 'everything', extra: Record<string, unknown> = {}) =>
  serverConfig(name, { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], ...extra });

/** Starts server-everything over streamable HTTP (or SSE); resolves once it listens. */
export async function startEverythingHttp(
  mode: 'streamableHttp' | 'sse' = 'streamableHttp',
  fixedPort?: number,
): Promise<{ url: string; port: number; child: ChildProcess; stop(): Promise<void> }> {
  const port = fixedPort ?? (await freePort());
  const child = spawn(process.execPath, [EVERYTHING_SERVER, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let said = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      said += d;
      if (/listening on port|running on port/.test(said)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${said}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`,
    port,
    child,
    stop: () => stopChild(child),
  };
}

/** Ends a child process and waits for it to be gone. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
