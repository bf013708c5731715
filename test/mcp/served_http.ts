import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { z } from 'zod';
import { buildTool } from '../../src/tool/build_tool.js';
import { LATHE_BIN } from '../support/cli.js';

/** `lathe mcp serve --http 0` of the built command: its URL, token, and what it wrote to stderr. */
export interface ServedCommand {
  child: ChildProcess;
  url: string;
  token: string;
  /** Resolves with stderr once it holds `text`. */
  stderrHolding(text: string): Promise<string>;
}

export async function serveCommand(workspace: string, env: NodeJS.ProcessEnv): Promise<ServedCommand> {
  const child = spawn(process.execPath, [LATHE_BIN, 'mcp', 'serve', '--http', '0', '--cwd', workspace], {
    env: { ...process.env, NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const waiters: Array<() => void> = [];
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
    for (const wake of waiters.splice(0)) wake();
  });
  const printed = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('Bearer ')) resolve(out);
    });
    child.once('exit', (code) => reject(new Error(`lathe mcp serve exited with ${code}: ${stderr}`)));
  });
  return {
    child,
    url: /lathe MCP server: (\S+)/.exec(printed)![1],
    token: /Authorization: Bearer (\S+)/.exec(printed)![1],
    async stderrHolding(text) {
      while (!stderr.includes(text)) await new Promise<void>((resolve) => waiters.push(resolve));
      return stderr;
    },
  };
}

/** A POST with exactly these headers (node:http lets a test forge `Host`): status and body. */
export function rawPost(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; body: string }> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path: pathname, method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
};

/** A served tool that answers only when the test says so: a session busy for as long as it likes. */
export function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  let entered: () => void = () => {};
  const running = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const tool = buildTool({
    name: 'wait_for_gate',
    inputSchema: z.object({}),
    description: 'Answers when the test opens the gate.',
    availability: { profiles: ['standard'] },
    kind: 'other',
    isReadOnly: () => true,
    async call() {
      entered();
      await opened;
      return { text: 'through' };
    },
  });
  return { tool, open: () => open(), running };
}
