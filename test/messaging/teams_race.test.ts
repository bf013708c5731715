import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type TeamMessage, TeamStore } from '../../src/messaging/team_store.js';
import { tempDir } from '../support/runtime_fixtures.js';

const projectRoot = resolve(fileURLToPath(import.meta.url), '../../..');
const storeModule = JSON.stringify(pathToFileURL(join(projectRoot, 'src/messaging/team_store.ts')).href);

/** Runs an ES module snippet in a child node (TypeScript sources through tsx); resolves to its stdout. */
function child(code: string): Promise<string> {
  return new Promise((done, fail) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    proc.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    proc.on('exit', (code) =>
      code === 0 ? done(stdout) : fail(new Error(`child failed (${code}): ${stderr}`)),
    );
  });
}

describe('a team mailbox under racing processes', () => {
  it('4 processes writing one mailbox at once lose no line and tear none; 2 readers never take one twice', async () => {
    const root = tempDir('lathe-teams-');
    const store = new TeamStore(root);
    await store.create({ name: 'crew', members: ['ann'] });
    const writers = 4;
    const each = 40;
    // Every fifth message is 40 KB: far past what one write() of a pipe or a page keeps whole.
    const writer = (n: number) => `
      import { TeamStore } from ${storeModule};
      const store = new TeamStore(${JSON.stringify(root)});
      await Promise.all(Array.from({ length: ${each} }, (_, i) =>
        store.deliver('crew', 'w${n}-' + i + '-' + (i % 5 === 0 ? 'x'.repeat(40000) : 'short'), 'writer${n}')));
    `;
    // Readers take while the writers write, then once more when all are done.
    const reader = `
      import { TeamStore } from ${storeModule};
      const store = new TeamStore(${JSON.stringify(root)});
      const taken = [];
      for (let i = 0; i < 30; i++) {
        taken.push(...(await store.takeUnread('ann')).map((m) => m.text.slice(0, 20)));
        await new Promise((r) => setTimeout(r, 5));
      }
      process.stdout.write(JSON.stringify(taken));
    `;
    const outputs = await Promise.all([
      ...Array.from({ length: writers }, (_, n) => child(writer(n))),
      child(reader),
      child(reader),
    ]);
    const mailbox = readFileSync(join(root, 'crew', 'mailboxes', 'ann.jsonl'), 'utf8');
    const lines = mailbox.split('\n').filter(Boolean);
    expect(lines).toHaveLength(writers * each);
    const messages = lines.map((line) => JSON.parse(line) as TeamMessage);
    const texts = new Set(messages.map((m) => m.text.split('-').slice(0, 2).join('-')));
    expect(texts.size).toBe(writers * each);
    for (const m of messages) expect(m.text).toMatch(/^w\d-\d+-(x{40000}|short)$/);

    const taken = outputs.slice(writers).flatMap((out) => JSON.parse(out) as string[]);
    const rest = (await store.takeUnread('ann')).map((m) => m.text.slice(0, 20));
    const all = [...taken, ...rest];
    expect(all).toHaveLength(writers * each);
    expect(new Set(all).size).toBe(writers * each);
  }, 60_000);
});
