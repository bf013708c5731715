import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { readSessionLog } from '../../src/session/read.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const projectRoot = path.resolve(here, '../..');
const logModule = pathToFileURL(path.join(projectRoot, 'src/session/log.ts')).href;

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-session-kill-'));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

// The child appends events of varied size as fast as it can, until it is killed mid-loop.
const childScript = `
const { SessionLog } = await import(${JSON.stringify(logModule)});
const log = SessionLog.create({ documentsRoot: process.env.ROOT, workspace: '/projects/kill', id: 'k', meta: {} });
process.stdout.write(log.path + '\\n');
for (let i = 0; ; i++) log.append({ type: 'tool_result', i, text: 'x'.repeat((i * 7919) % 20000) });
`;

it('a SIGKILLed writer leaves only complete lines, plus at most one torn last line', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', childScript], {
    cwd: projectRoot,
    env: { ...process.env, ROOT: root },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_code, signal) => resolve(signal)),
  );
  const logPath = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    child.on('exit', () => reject(new Error(`child exited early: ${stderr}`)));
  });
  // Let it write a good number of events, then kill it without warning.
  const deadline = Date.now() + 10_000;
  while (fs.statSync(logPath).size < 200_000 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');

  const content = fs.readFileSync(logPath, 'utf8');
  const completeLines = content.split('\n').length - 1;
  const { events, tornLine, errors } = readSessionLog(logPath);
  expect(errors).toEqual([]);
  expect(events.length).toBeGreaterThan(10);
  // Every newline-terminated line parsed; only an unterminated tail may be skipped.
  expect(events.length).toBe(completeLines + (content.endsWith('\n') || tornLine ? 0 : 1));
  if (tornLine) expect(content.endsWith('\n')).toBe(false);
  expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));
  events.slice(1).forEach((event, index) => {
    expect(event.i).toBe(index);
    expect(event.text).toBe('x'.repeat((index * 7919) % 20000));
  });
});
