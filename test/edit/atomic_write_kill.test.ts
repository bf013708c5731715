import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// Killing a writer of 50 MB files at random moments, five times: a scale test (npm run test:slow).

const here = path.dirname(fileURLToPath(import.meta.url));
const projectRoot = path.resolve(here, '../..');
const moduleUrl = pathToFileURL(path.join(projectRoot, 'src/edit/atomic_write.ts')).href;
const posix = process.platform !== 'win32';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lathe-atomic-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('atomicWriteFile killed mid-write', () => {
  it.runIf(posix)(
    'leaves the old or the new content, never a partial file, when killed mid-write',
    async () => {
      const size = 50 * 1024 * 1024;
      const target = path.join(dir, 'big.bin');
      const hash = (data: Buffer) => createHash('sha256').update(data).digest('hex');
      const whole = new Set([hash(Buffer.alloc(size, 'a')), hash(Buffer.alloc(size, 'b'))]);
      // Alternates two 50 MB contents forever; says "ready" once the first write is complete.
      const child = [
        `const { atomicWriteFile } = await import(${JSON.stringify(moduleUrl)});`,
        `const size = ${size};`,
        `const contents = [Buffer.alloc(size, 'a'), Buffer.alloc(size, 'b')];`,
        'for (let i = 0; ; i++) {',
        `  await atomicWriteFile(${JSON.stringify(target)}, contents[i % 2]);`,
        "  if (i === 0) process.stdout.write('ready\\n');",
        '}',
      ].join('\n');

      for (let round = 0; round < 5; round++) {
        const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child], {
          cwd: projectRoot,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stderr = '';
        proc.stderr.on('data', (chunk) => {
          stderr += chunk;
        });
        const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
        await new Promise<void>((resolve, reject) => {
          proc.stdout.on('data', (chunk: Buffer) => {
            if (chunk.toString().includes('ready')) resolve();
          });
          proc.on('exit', (code) => reject(new Error(`child exited early (${code}): ${stderr}`)));
        });
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 600));
        proc.kill('SIGKILL');
        await exited;

        const stat = await fs.lstat(target);
        expect(stat.isFile()).toBe(true);
        expect(stat.size).toBe(size);
        expect(whole.has(hash(await fs.readFile(target)))).toBe(true);
        // A killed write may leave its temp file behind, but only under the temp name.
        for (const name of await fs.readdir(dir)) {
          expect(/^(big\.bin|\.big\.bin\.lathe-tmp-\d+-[0-9a-f]{8}|\.big\.bin\.lathe-lock)$/.test(name)).toBe(
            true,
          );
        }
      }
    },
    180_000,
  );
});
