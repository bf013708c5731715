import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { atomicWriteFile } from '../../src/edit/atomic_write.js';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { tempDir } from '../support/runtime_fixtures.js';

const projectRoot = resolve(fileURLToPath(import.meta.url), '../../..');
const moduleUrl = (file: string) => JSON.stringify(pathToFileURL(join(projectRoot, file)).href);
const linux = process.platform === 'linux';

/** Runs an ES module snippet in a child node (TypeScript sources through tsx). */
function child(
  code: string,
): ChildProcess & { output: Promise<string>; line: (text: string) => Promise<void> } {
  const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: projectRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: Array<{ text: string; resolve: () => void }> = [];
  proc.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk;
    for (const w of waiters.splice(0)) {
      if (stdout.includes(w.text)) w.resolve();
      else waiters.push(w);
    }
  });
  proc.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const output = new Promise<string>((done, fail) =>
    proc.on('exit', (code, signal) =>
      code === 0 || signal ? done(stdout) : fail(new Error(`child failed (${code}): ${stderr}`)),
    ),
  );
  const line = (text: string) =>
    new Promise<void>((done, fail) => {
      if (stdout.includes(text)) return done();
      waiters.push({ text, resolve: done });
      proc.on('exit', () => fail(new Error(`child exited before "${text}": ${stderr}`)));
    });
  return Object.assign(proc, { output, line });
}

describe.runIf(linux)('writes under a racing symlink swap', () => {
  it('300 writes while a parent folder flips to a symlink leading outside: nothing lands outside', async () => {
    const workspace = tempDir();
    const outside = tempDir('lathe-outside-');
    mkdirSync(join(workspace, 'sub'));
    // Flips workspace/sub between the real folder and a symlink to `outside`, as fast as it can.
    const racer = child(`
      import { renameSync, symlinkSync, unlinkSync } from 'node:fs';
      const sub = ${JSON.stringify(join(workspace, 'sub'))};
      const kept = sub + '.real';
      let swaps = 0;
      let stop = false;
      process.on('SIGTERM', () => { stop = true; });
      process.stdout.write('racing\\n');
      const step = () => {
        for (let i = 0; i < 200; i++) {
          try { renameSync(sub, kept); symlinkSync(${JSON.stringify(outside)}, sub); swaps++; } catch {}
          try { unlinkSync(sub); } catch {}
          try { renameSync(kept, sub); } catch {}
        }
        if (stop) {
          try { unlinkSync(sub); } catch {}
          try { renameSync(kept, sub); } catch {}
          process.stdout.write('swaps ' + swaps + '\\n');
          process.exit(0);
        }
        setImmediate(step);
      };
      step();
    `);
    await racer.line('racing');
    // --yolo: the permission engine allows even a path that, at check time, leads outside; only
    // the write itself can keep the file inside.
    // Checkpoints off: 300 snapshots would measure git, not the write.
    const runtime = createRuntime({
      cwd: workspace,
      documentsRoot: tempDir('lathe-home-'),
      yolo: true,
      env: {},
      settings: { checkpoints: { enabled: false } },
    });
    const results = [];
    for (let i = 0; i < 300; i++) {
      // Every third write also creates a folder, which must not appear outside either.
      const path = i % 3 === 0 ? `sub/d${i}/f.txt` : `sub/f${i}.txt`;
      results.push(await runtime.runTool('write_to_file', { path, content: `${i}\n` }));
    }
    racer.kill('SIGTERM');
    const swaps = Number(/swaps (\d+)/.exec(await racer.output)?.[1]);

    expect(swaps).toBeGreaterThan(0);
    expect(readdirSync(outside)).toEqual([]);
    const written = results.filter((r) => !r.isError).length;
    expect(written).toBeGreaterThan(0);
    for (const r of results.filter((r) => r.isError)) {
      expect(r.text).toMatch(/outside the workspace|is not a folder|moved or removed while writing/);
    }
  }, 120_000);

  it("a SIGKILLed writer's temp file is swept by a later write into the folder", async () => {
    const dir = tempDir();
    const writer = child(`
      const { OpenFolder } = await import(${moduleUrl('src/edit/open_folder.ts')});
      const folder = await OpenFolder.open(${JSON.stringify(dir)});
      const temp = await folder.writeTemp('data.txt', 'half of a write', undefined);
      process.stdout.write('temp ' + temp + '\\n');
      setInterval(() => {}, 1000);
    `);
    await writer.line('\n');
    const leftover = readdirSync(dir).find((name) => name.includes('.lathe-tmp-'));
    expect(leftover).toMatch(new RegExp(`^\\.data\\.txt\\.lathe-tmp-${writer.pid}-[0-9a-f]{8}$`));
    const leftoverPath = join(dir, leftover as string);
    // Old enough to be stale, but its writer is alive: kept.
    const old = new Date(Date.now() - 5 * 60_000);
    utimesSync(leftoverPath, old, old);
    await atomicWriteFile(join(dir, 'other.txt'), 'x');
    expect(existsSync(leftoverPath)).toBe(true);

    writer.kill('SIGKILL');
    await writer.output;
    await atomicWriteFile(join(dir, 'other.txt'), 'y');
    expect(existsSync(leftoverPath)).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['other.txt']);
  }, 60_000);

  it('a fresh temp file of a dead process is kept (it may belong to another pid namespace)', async () => {
    const dir = tempDir();
    const writer = child(`process.stdout.write(String(process.pid) + '\\n');`);
    const pid = Number((await writer.output).trim());
    const fresh = join(dir, `.a.txt.lathe-tmp-${pid}-0123abcd`);
    writeFileSync(fresh, 'x');
    await atomicWriteFile(join(dir, 'b.txt'), 'y');
    expect(existsSync(fresh)).toBe(true);
  }, 60_000);
});

describe.runIf(linux)('two processes editing one file', () => {
  it('never lose an update: each edit applies, or is refused as "changed since read" and redone', async () => {
    const workspace = tempDir();
    const rounds = 60;
    writeFileSync(join(workspace, 'counters.txt'), 'a=0\nb=0\n');
    // Each process counts its own line up from 0 to `rounds` with replace_in_file, redoing an
    // edit that was refused because the other process wrote the file meanwhile.
    const counter = (name: string) =>
      child(`
        const { createRuntime } = await import(${moduleUrl('src/runtime/create_runtime.ts')});
        const runtime = createRuntime({ cwd: ${JSON.stringify(workspace)}, documentsRoot: ${JSON.stringify(tempDir('lathe-home-'))}, approve: ['edit'], env: {}, settings: { checkpoints: { enabled: false } } });
        let refused = 0;
        process.stdout.write('ready\\n');
        for (let i = 1; i <= ${rounds}; i++) {
          const diff = '------- SEARCH\\n${name}=' + (i - 1) + '\\n=======\\n${name}=' + i + '\\n+++++++ REPLACE';
          const r = await runtime.runTool('replace_in_file', { path: 'counters.txt', diff });
          if (r.isError) {
            if (!/changed since read/.test(r.text)) { console.error(r.text); process.exit(1); }
            refused++;
            i--;
          }
        }
        process.stdout.write('refused ' + refused + '\\n');
      `);
    const a = counter('a');
    const b = counter('b');
    const [outA, outB] = await Promise.all([a.output, b.output]);
    expect(readFileSync(join(workspace, 'counters.txt'), 'utf8')).toBe(`a=${rounds}\nb=${rounds}\n`);
    const refusals = [outA, outB].map((out) => Number(/refused (\d+)/.exec(out)?.[1]));
    expect(refusals.every((n) => Number.isInteger(n))).toBe(true);
    expect(readdirSync(workspace)).toEqual(['counters.txt']);
  }, 180_000);
});
