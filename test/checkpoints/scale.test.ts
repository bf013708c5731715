import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { CheckpointStore, shadowGitDir } from '../../src/checkpoints/index.js';
import { LATHE_BIN, lathe } from '../support/cli.js';
import { testNeeds } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { treeState } from './fixture.js';

/** Text that compresses as source code does: words of a small vocabulary, from a seeded generator. */
function textFile(seed: number, bytes: number): string {
  const words = ['const', 'value', 'return', 'function', 'import', 'export', 'if', 'else', 'for', 'await'];
  let state = seed;
  const parts: string[] = [];
  let length = 0;
  while (length < bytes) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const word = `${words[state % words.length]}${state % 997}`;
    parts.push(word, state % 7 === 0 ? '\n' : ' ');
    length += word.length + 1;
  }
  return parts.join('');
}

/** A tree of `folders` × `files` text files of `bytes` each. */
function bigTree(folders: number, files: number, bytes: number): string {
  const dir = tempDir('lathe-big-');
  for (let f = 0; f < folders; f++) {
    mkdirSync(join(dir, `pkg${f}`));
    for (let i = 0; i < files; i++)
      writeFileSync(join(dir, `pkg${f}`, `file${i}.ts`), textFile(f * files + i, bytes));
  }
  return dir;
}

describe('checkpoints at scale', () => {
  it('50 checkpoints of a 100 MB tree, one file changed before each, add under 5 MB', async () => {
    const dir = bigTree(20, 100, 50 * 1024);
    const store = new CheckpointStore({
      workspace: dir,
      documentsRoot: tempDir('lathe-home-'),
      keep: 100,
      maxAgeDays: 30,
    });
    await store.take({ kind: 'turn', label: 'first' }, { always: true });
    const first = await store.diskUsage();
    for (let n = 0; n < 50; n++) {
      const file = join(dir, `pkg${n % 20}`, `file${(n * 7) % 100}.ts`);
      writeFileSync(file, `${readFileSync(file, 'utf8')}\nconst change${n} = ${n};\n`);
      await store.take({ kind: 'call', label: `change ${n}` });
    }
    const added = (await store.diskUsage()) - first;
    expect((await store.list()).length).toBe(51);
    expect(added).toBeLessThan(5 * 1024 * 1024);
  }, 600_000);

  testNeeds('bwrap')(
    'a kill -9 mid-snapshot leaves the files untouched and the shadow repository usable',
    async () => {
      const dir = bigTree(10, 300, 20 * 1024);
      const home = tempDir('lathe-home-');
      const before = treeState(dir);
      const env = { ...process.env, LATHE_HOME: home, NODE_ENV: 'test', LATHE_FEATURES: '' };
      // A command that writes: the call a snapshot of the whole tree is taken before.
      const input = JSON.stringify({ command: 'echo made > made.txt' });
      const child = spawn(
        process.execPath,
        [LATHE_BIN, 'tool', 'execute_command', '--yolo', '--cwd', dir, '--input', input],
        { env, detached: true, stdio: 'ignore' },
      );
      const ended = new Promise((resolve) => child.on('close', resolve));
      // git fast-import's temporary pack exists exactly while the snapshot writes it.
      const packs = join(shadowGitDir(home, dir), 'objects', 'pack');
      const writing = () => {
        try {
          return readdirSync(packs).some((name) => name.startsWith('tmp_pack_'));
        } catch {
          return false;
        }
      };
      while (!writing()) await sleep(2);
      process.kill(-(child.pid ?? 0), 'SIGKILL');
      await ended;

      expect(treeState(dir)).toEqual(before);
      const again = lathe(['tool', 'execute_command', '--yolo', '--cwd', dir, '--input', input], { env });
      expect(again.code).toBe(0);
      expect(again.stdout).not.toContain('No checkpoint');
      const listed = JSON.parse(lathe(['checkpoints', 'list', '--json', '--cwd', dir], { env }).stdout);
      expect(listed).toHaveLength(1);
      expect(lathe(['checkpoints', 'restore', listed[0].id, '--cwd', dir], { env }).code).toBe(0);
      expect(treeState(dir)).toEqual(before);
    },
    600_000,
  );
});
