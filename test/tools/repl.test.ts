import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lathe } from '../support/cli.js';
import { closeFakeServers, runHeadless } from '../support/headless_run.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { disposeAll, runtimeWith } from '../tasks/helpers.js';

afterEach(async () => {
  await closeFakeServers();
  await disposeAll();
});

const env = () => ({ LATHE_HOME: tempDir('lathe-home-'), LATHE_FEATURES: '' });
// Edits of .txt files: no language server is started for diagnostics.
const quiet = { lsp: { diagnosticsAfterEdit: false } };

describe('repl', () => {
  it('is offered with the internal feature', () => {
    expect(runtimeWith(['internal']).pool.map((t) => t.name)).toContain('repl');
    expect(runtimeWith([]).pool.map((t) => t.name)).not.toContain('repl');
  });

  it('keeps state between calls and shows the last value and what was printed', async () => {
    const rt = runtimeWith(['internal']);
    expect(
      (await rt.runTool('repl', { code: 'let count = 40; function twice(n) { return 2 * n }' })).text,
    ).toBe('undefined');
    const r = await rt.runTool('repl', {
      code: 'console.log("count is", count); ({ total: twice(count) + 2 })',
    });
    expect(r).toMatchObject({ isError: false, text: 'count is 40\n{ total: 82 }' });
  });

  it('runs code that awaits as an async body, and reports what it throws', async () => {
    const rt = runtimeWith(['internal']);
    const awaited = await rt.runTool('repl', {
      code: 'globalThis.kept = await Promise.resolve(7); return kept * 6',
    });
    expect(awaited.text).toBe('42');
    expect((await rt.runTool('repl', { code: 'kept' })).text).toBe('7');
    const thrown = await rt.runTool('repl', { code: 'null.x' });
    expect(thrown.isError).toBe(true);
    expect(thrown.text).toMatch(
      /^TypeError: Cannot read properties of null \(reading 'x'\)\n {4}at repl:1:6/,
    );
  });

  it('gives code that awaits the value of its last expression, and keeps what it declares', async () => {
    const rt = runtimeWith(['internal']);
    expect((await rt.runTool('repl', { code: 'const r = await Promise.resolve(5); r' })).text).toBe('5');
    const declared = await rt.runTool('repl', {
      code: [
        'let { a, b: [c] } = await Promise.resolve({ a: 1, b: [2] }), unset;',
        'class Box { constructor(v) { this.v = v } }',
        'const boxed = new Box(twice(a + c));',
        'function twice(n) { return 2 * n }',
        'boxed.v // the last value',
      ].join('\n'),
    });
    expect(declared).toMatchObject({ isError: false, text: '6' });
    expect(
      (await rt.runTool('repl', { code: '[r, a, c, unset, twice(4), new Box(1).v, boxed.v]' })).text,
    ).toBe('[ 5, 1, 2, undefined, 8, 1, 6 ]');
    // The code’s own line numbers, after the rewrite.
    const thrown = await rt.runTool('repl', { code: 'const x = await 1;\n\nnull.y' });
    expect(thrown.text).toMatch(/\n {4}at repl:3:\d+/);
  });

  it('reaches files and commands only through lathe’s tools and their permission checks', async () => {
    const rt = runtimeWith(['internal'], { settings: quiet });
    writeFileSync(join(rt.cwd, 'notes.txt'), 'hello\n');
    const read = await rt.runTool('repl', { code: 'await read("notes.txt")' });
    expect(read.text).toBe('1\thello');
    // Writing asks, and headless no one can approve it: the helper's promise rejects with the refusal.
    const refused = await rt.runTool('repl', {
      code: 'try { await write("made.txt", "x") } catch (e) { return e.message }',
    });
    expect(refused.text).toMatch(/^Not run: write_to_file needs approval \(category edit\)/);
    expect(existsSync(join(rt.cwd, 'made.txt'))).toBe(false);
  });

  it('writes, edits and runs commands once they are approved', async () => {
    const rt = runtimeWith(['internal'], { approve: ['edit', 'executeAll'], settings: quiet });
    writeFileSync(join(rt.cwd, 'greeting.txt'), 'hello world\n');
    const r = await rt.runTool('repl', {
      code: [
        'await write("made.txt", "from the repl\\n")',
        'await read("greeting.txt")',
        'await edit("greeting.txt", "world", "there")',
        'return await sh("cat made.txt greeting.txt")',
      ].join('\n'),
    });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/^from the repl\nhello there\n/);
    expect(readFileSync(join(rt.cwd, 'made.txt'), 'utf8')).toBe('from the repl\n');
    expect(readFileSync(join(rt.cwd, 'greeting.txt'), 'utf8')).toBe('hello there\n');
  });

  it('holds nothing of lathe’s own realm: no process, require or constructor way out', async () => {
    const rt = runtimeWith(['internal']);
    const attempts = [
      'typeof process',
      'typeof require',
      'this.constructor.constructor("return typeof process")()',
      'read.constructor.constructor("return typeof process")()',
      'console.log.constructor.constructor("return typeof process")()',
      'setTimeout.constructor.constructor("return typeof process")()',
      '(async () => {})().constructor.constructor("return typeof process")()',
    ];
    for (const attempt of attempts) {
      const code = `(${attempt}) === 'undefined' ? 'sealed' : 'open'`;
      expect((await rt.runTool('repl', { code })).text, attempt).toBe('sealed');
    }
    // A then of the code's own, which lathe's side would call with its functions if it awaited the code's promises.
    const trap = await rt.runTool('repl', {
      code: `let leaked = 'none';
Promise.prototype.then = function (ok) { try { leaked = typeof ok.constructor.constructor('return process')(); } catch {} return this; };
Promise.resolve(1)`,
    });
    expect(trap.isError).toBe(false);
    expect((await rt.runTool('repl', { code: 'leaked' })).text).toBe('none');
  });

  it('stops synchronous code past its timeout and keeps the state', async () => {
    const rt = runtimeWith(['internal']);
    await rt.runTool('repl', { code: 'var before = "still here"' });
    const r = await rt.runTool('repl', { code: 'while (true) {}', timeout: 0.5 });
    expect(r).toMatchObject({
      isError: true,
      text: "Stopped: the code ran past its timeout (0.5 s). The REPL's state is kept.",
    });
    expect((await rt.runTool('repl', { code: 'before' })).text).toBe('still here');
  });

  it('restarts the REPL when code is still waiting past its timeout', async () => {
    const rt = runtimeWith(['internal']);
    await rt.runTool('repl', { code: 'var before = 1' });
    const r = await rt.runTool('repl', { code: 'await new Promise(() => {})', timeout: 0.5 });
    expect(r.text).toBe(
      'Stopped: the code was still running past its timeout (0.5 s).\nThe REPL was restarted: its state (variables, functions) is gone.',
    );
    expect((await rt.runTool('repl', { code: 'typeof before' })).text).toBe('undefined');
  });

  it('stops code that passes its memory cap, and starts afresh', async () => {
    const rt = runtimeWith(['internal'], { settings: { repl: { memoryMb: 32 } } });
    const r = await rt.runTool('repl', {
      code: 'const hoard = []; while (true) hoard.push(new Array(100000).fill(1.5))',
    });
    expect(r.text).toBe(
      'Stopped: the code ran out of memory (the REPL may use 32 MB, settings repl.memoryMb).\nThe REPL was restarted: its state (variables, functions) is gone.',
    );
    expect((await rt.runTool('repl', { code: '1 + 1' })).text).toBe('2');
  });

  it('through lathe tool: a value, and a run past its timeout', () => {
    const dir = tempDir();
    const ok = lathe(
      [
        'tool',
        'repl',
        '--feature',
        'internal',
        '--input',
        '{"code":"[1, 2, 3].map((n) => n * n)"}',
        '--cwd',
        dir,
      ],
      {
        env: env(),
      },
    );
    expect(ok).toMatchObject({ code: 0, stdout: '[ 1, 4, 9 ]\n' });
    const stopped = lathe(
      [
        'tool',
        'repl',
        '--feature',
        'internal',
        '--input',
        '{"code":"for (;;) {}","timeout":0.5}',
        '--cwd',
        dir,
      ],
      { env: env() },
    );
    expect(stopped).toMatchObject({
      code: 1,
      stdout: "Stopped: the code ran past its timeout (0.5 s). The REPL's state is kept.\n",
    });
  });

  it('in lathe -p: state across calls, a write through write_to_file, and a run stopped at its timeout', async () => {
    const dir = tempDir();
    const r = await runHeadless(
      dir,
      [
        { toolCalls: [{ name: 'repl', input: { code: 'globalThis.n = 20; n' } }] },
        {
          toolCalls: [
            { name: 'repl', input: { code: 'await write("out.txt", String(n + 1)); return n + 1' } },
          ],
        },
        { toolCalls: [{ name: 'repl', input: { code: 'while (true) {}', timeout: 0.5 } }] },
        { text: 'done' },
      ],
      ['--feature', 'internal', '--approve', 'edit'],
    );
    expect(r.code).toBe(0);
    const results = r.requests.slice(1).map((q) => q.toolResults[0]);
    expect(results.map((x) => x.content)).toEqual([
      '20',
      '21',
      "Stopped: the code ran past its timeout (0.5 s). The REPL's state is kept.",
    ]);
    expect(results[2].isError).toBe(true);
    expect(readFileSync(join(dir, 'out.txt'), 'utf8')).toBe('21');
  });
});
