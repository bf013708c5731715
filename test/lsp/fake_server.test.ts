import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LanguageServerSetting } from '../../src/config/types.js';
import { LanguageServers } from '../../src/lsp/language_servers.js';
import { createRuntime, type Runtime } from '../../src/runtime/create_runtime.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

const FAKE = fileURLToPath(new URL('../support/lsp/fake_language_server.mjs', import.meta.url));

const fakeServer = (...flags: string[]): LanguageServerSetting => ({
  command: process.execPath,
  args: [FAKE, '--stdio', ...flags],
  languages: ['fakelang'],
  extensions: ['.fk'],
});

const SOURCE = 'class Greeter\n  method greet\nfunction greet\n';

/** A runtime over a workspace of fake-language files, its server table holding the scripted server. */
function fakeRuntime(
  options: {
    flags?: string[];
    timeout?: { cold: number; warm: number };
    files?: Record<string, string>;
  } = {},
) {
  const workspace = writeTree({ 'a.fk': SOURCE, ...options.files });
  const runtime = createRuntime({
    cwd: workspace,
    documentsRoot: tempDir('lathe-home-'),
    features: ['lsp'],
    yolo: true,
    env: {},
    settings: {
      lsp: {
        servers: { fake: fakeServer(...(options.flags ?? [])) },
        ...(options.timeout ? { diagnosticsTimeout: options.timeout } : {}),
      },
    },
  });
  return { workspace, runtime };
}

async function writeFile(runtime: Runtime, path: string, content: string): Promise<string> {
  const result = await runtime.runTool('write_to_file', { path, content });
  expect(result.isError, result.text).toBe(false);
  return result.text;
}

describe('the scripted language server', () => {
  let runtime: Runtime;
  beforeAll(() => {
    runtime = fakeRuntime().runtime;
  });
  afterAll(() => runtime.dispose());

  it('offers find_references and rename once a server is in the table', () => {
    const names = runtime.pool.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['lsp', 'find_references', 'rename']));
  });

  it('resolves line/column, symbol and anchor to the same place', async () => {
    const byLine = await runtime.runTool('lsp', {
      operation: 'definition',
      path: 'a.fk',
      line: 2,
      column: 10,
    });
    const bySymbol = await runtime.runTool('lsp', {
      operation: 'definition',
      path: 'a.fk',
      symbol: 'Greeter.greet',
    });
    const byAnchor = await runtime.runTool('lsp', {
      operation: 'definition',
      path: 'a.fk',
      anchor: 'greet',
      occurrence: 1,
    });
    expect(byLine.text).toContain('a.fk\n  2:10  method greet');
    expect(bySymbol.text).toBe(byLine.text);
    expect(byAnchor.text).toBe(byLine.text);
  });

  it('lists the candidates of an ambiguous symbol and of a missing one', async () => {
    await writeFile(runtime, 'two.fk', 'class A\n  method run\nclass B\n  method run\n');
    const ambiguous = await runtime.runTool('lsp', { operation: 'hover', path: 'two.fk', symbol: 'run' });
    expect(ambiguous.isError).toBe(true);
    expect(ambiguous.text).toBe(
      'two.fk: symbol "run" is ambiguous: A.run (method, line 2); B.run (method, line 4). Give the longer name path or line and column.',
    );
    // A whole name path is no ambiguity: `greet` is the top-level function, not Greeter.greet.
    const exact = await runtime.runTool('lsp', { operation: 'hover', path: 'a.fk', symbol: 'greet' });
    expect(exact.text).toBe('hover at 3:10');
    const missing = await runtime.runTool('lsp', { operation: 'hover', path: 'a.fk', symbol: 'Nope' });
    expect(missing.text).toContain('is not in the file. Its symbols: Greeter, Greeter.greet, greet');
  });

  it('refuses positions past the end of the file or of the line, in one line', async () => {
    const line = await runtime.runTool('lsp', { operation: 'hover', path: 'a.fk', line: 40, column: 1 });
    expect(line.text).toBe('a.fk: line 40 is past the end of the file (it has 3 lines).');
    const column = await runtime.runTool('lsp', { operation: 'hover', path: 'a.fk', line: 1, column: 99 });
    expect(column.text).toBe('a.fk: column 99 is past the end of line 1 (it has 13 characters).');
  });

  it('says a file no server knows is not a source file', async () => {
    await writeFile(runtime, 'notes.txt', 'hello\n');
    const result = await runtime.runTool('lsp', {
      operation: 'hover',
      path: 'notes.txt',
      line: 1,
      column: 1,
    });
    expect(result.text).toBe('unavailable: notes.txt is not a source file a language server knows.');
  });

  it('answers a language without a server with how to configure one', async () => {
    await writeFile(runtime, 'main.go', 'package main\n');
    const result = await runtime.runTool('lsp', { operation: 'hover', path: 'main.go', line: 1, column: 1 });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^unavailable: no server for go .*Configure one in settings: "lsp"/);
  });

  it('find_references falls back to a whole-word text search where no server serves the language', async () => {
    await writeFile(runtime, 'tool.sh', 'deploy() { echo; }\ndeploy\nredeploy\n');
    const result = await runtime.runTool('find_references', { path: 'tool.sh', anchor: 'deploy()' });
    if (result.text.includes('No language server for shellscript')) {
      expect(result.text).toContain('whole-word text matches of deploy');
      expect(result.text).toContain('tool.sh\n  1:1  deploy() { echo; }\n  2:1  deploy');
      expect(result.text).not.toContain('redeploy');
    } else {
      // bash-language-server is on PATH here: it answered.
      expect(result.isError).toBe(false);
    }
  });

  it('appends the edited file’s diagnostics to an edit, and clean after the fix', async () => {
    const broken = await writeFile(runtime, 'b.fk', 'function one\nERROR here\n');
    expect(broken).toContain('\ndiagnostics: 1 error\n  b.fk:2:1 error E1: an error here');
    const fixed = await writeFile(runtime, 'b.fk', 'function one\n');
    expect(fixed).toMatch(/\ndiagnostics: clean$/);
  });

  it('lists only the edited file’s diagnostics beside 10,000 in unrelated files', async () => {
    const text = await writeFile(runtime, 'noisy.fk', 'NOISE\nERROR one\n');
    expect(text).toContain('diagnostics: 1 error\n  noisy.fk:2:1 error E1: an error here');
    expect(text).not.toContain('elsewhere');
    const again = await writeFile(runtime, 'noisy.fk', 'NOISE\nERROR one\nERROR two\n');
    expect(again).toContain('diagnostics: 2 errors');
    expect(again).not.toContain('elsewhere');
  });
});

describe('diagnostics that come late', () => {
  it('are seen within a 15 s timeout', async () => {
    const { runtime } = fakeRuntime({ timeout: { cold: 15, warm: 15 } });
    try {
      const text = await writeFile(runtime, 'late.fk', 'LATE\nERROR\n');
      expect(text).toContain('diagnostics: 1 error');
    } finally {
      await runtime.dispose();
    }
  }, 30_000);

  it('are reported unavailable (timeout) past a 2 s one, never as clean', async () => {
    const { runtime } = fakeRuntime({ timeout: { cold: 2, warm: 2 } });
    try {
      const text = await writeFile(runtime, 'late.fk', 'LATE\nERROR\n');
      expect(text).toMatch(/\ndiagnostics: unavailable \(timeout\)$/);
    } finally {
      await runtime.dispose();
    }
  }, 30_000);

  it('are not waited for when diagnosticsAfterEdit is off', async () => {
    const workspace = writeTree({ 'a.fk': SOURCE });
    const runtime = createRuntime({
      cwd: workspace,
      documentsRoot: tempDir('lathe-home-'),
      yolo: true,
      env: {},
      settings: { lsp: { servers: { fake: fakeServer() }, diagnosticsAfterEdit: false } },
    });
    try {
      const text = await writeFile(runtime, 'c.fk', 'ERROR\n');
      expect(text).not.toContain('diagnostics');
    } finally {
      await runtime.dispose();
    }
  });
});

describe('diagnostics after edits and projects', () => {
  it('are given in a folder its server calls a project, and not for a stray file elsewhere', async () => {
    const workspace = writeTree({ 'app/fake.json': '{}', 'app/a.fk': SOURCE, 'scratch/b.fk': SOURCE });
    const runtime = createRuntime({
      cwd: workspace,
      documentsRoot: tempDir('lathe-home-'),
      yolo: true,
      env: {},
      settings: { lsp: { servers: { fake: { ...fakeServer(), rootMarkers: ['fake.json'] } } } },
    });
    try {
      expect(await writeFile(runtime, 'scratch/b.fk', 'ERROR\n')).not.toContain('diagnostics');
      expect(await writeFile(runtime, 'app/c.fk', 'ERROR\n')).toMatch(/diagnostics: 1 error/);
    } finally {
      await runtime.dispose();
    }
  }, 30_000);
});

describe('a server that fails', () => {
  const servers = (flags: string[], timeouts: { init?: number; request?: number } = {}) => {
    const workspace = writeTree({ 'a.fk': SOURCE, 'crash.fk': 'CRASH\nfunction f\n' });
    const ls = new LanguageServers({
      settings: {
        servers: { fake: fakeServer(...flags) },
        diagnosticsAfterEdit: true,
        coldTimeoutMs: 15_000,
        warmTimeoutMs: 3_000,
        editWaitMs: 300,
      },
      initTimeoutMs: timeouts.init,
      requestTimeoutMs: timeouts.request,
    });
    return { workspace, ls };
  };

  it('crashing mid-request answers at once, and the next call is served by a restarted server', async () => {
    // The request timeout is longer than the test's: only the exit can end the first call.
    const { workspace, ls } = servers([], { request: 120_000 });
    try {
      const server = await ls.serverFor(`${workspace}/crash.fk`, { workspace });
      if ('unavailable' in server) throw new Error(server.unavailable);
      const { uri } = await server.sync(`${workspace}/crash.fk`);
      const hover = server.request('textDocument/hover', {
        textDocument: { uri },
        position: { line: 0, character: 0 },
      });
      await expect(hover).rejects.toThrow(
        /stopped while answering textDocument\/hover: it exited \(exit code 3\)/,
      );
      const again = await ls.serverFor(`${workspace}/a.fk`, { workspace });
      if ('unavailable' in again) throw new Error(again.unavailable);
      const synced = await again.sync(`${workspace}/a.fk`);
      const answer = await again.request<{ range: unknown }>('textDocument/definition', {
        textDocument: { uri: synced.uri },
        position: { line: 1, character: 9 },
      });
      expect(answer.range).toEqual({ start: { line: 1, character: 9 }, end: { line: 1, character: 9 } });
      expect(ls.status().find((s) => s.name === 'fake')?.state).toBe(`running in ${workspace}`);
    } finally {
      await ls.dispose();
    }
  }, 10_000);

  it('that exits at start is unavailable with its reason, and crashed after 3 restarts', async () => {
    const { workspace, ls } = servers(['--exit-at-start']);
    try {
      const first = await ls.serverFor(`${workspace}/a.fk`, { workspace });
      expect(first).toMatchObject({
        unavailable: expect.stringMatching(
          /did not start: .*it exited \(exit code 1\): fake server: cannot start$/,
        ),
      });
      for (let i = 0; i < 3; i++) await ls.serverFor(`${workspace}/a.fk`, { workspace });
      const last = await ls.serverFor(`${workspace}/a.fk`, { workspace });
      expect((last as { unavailable: string }).unavailable).toMatch(/^crashed \(fake: /);
    } finally {
      await ls.dispose();
    }
  }, 20_000);

  it('that sends garbage is refused in one line', async () => {
    const { workspace, ls } = servers(['--garbage']);
    try {
      const result = await ls.serverFor(`${workspace}/a.fk`, { workspace });
      expect((result as { unavailable: string }).unavailable).toMatch(
        /^the fake language server did not start: /,
      );
      expect((result as { unavailable: string }).unavailable).not.toContain('\n');
    } finally {
      await ls.dispose();
    }
  }, 20_000);

  it('that never answers gives up at its timeout', async () => {
    const { workspace, ls } = servers(['--silent'], { init: 1000 });
    try {
      const result = await ls.serverFor(`${workspace}/a.fk`, { workspace });
      expect((result as { unavailable: string }).unavailable).toBe(
        'the fake language server did not start: the fake language server did not answer initialize within 1 s',
      );
    } finally {
      await ls.dispose();
    }
  }, 20_000);

  it('leaves no process behind once disposed', async () => {
    const { workspace, ls } = servers([]);
    const server = await ls.serverFor(`${workspace}/a.fk`, { workspace });
    expect('unavailable' in server).toBe(false);
    const pids = ls.serverPids();
    expect(pids.length).toBe(1);
    await ls.dispose();
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  });
});

describe('an idle server', () => {
  /** Resolves once no process has this pid (the server exited and was reaped). */
  const gone = async (pid: number) => {
    for (;;) {
      try {
        process.kill(pid, 0);
      } catch {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('is shut down after the idle time, and the next request starts it again', async () => {
    const workspace = writeTree({ 'a.fk': SOURCE });
    const ls = new LanguageServers({
      settings: {
        servers: { fake: fakeServer() },
        diagnosticsAfterEdit: true,
        coldTimeoutMs: 15_000,
        warmTimeoutMs: 3_000,
        editWaitMs: 300,
      },
      idleMs: 300,
    });
    try {
      const first = await ls.serverFor(`${workspace}/a.fk`, { workspace });
      if ('unavailable' in first) throw new Error(first.unavailable);
      const [pid] = ls.serverPids();
      expect(pid).toBeGreaterThan(0);
      await gone(pid);
      expect(ls.serverPids()).toEqual([]);
      const again = await ls.serverFor(`${workspace}/a.fk`, { workspace });
      if ('unavailable' in again) throw new Error(again.unavailable);
      const synced = await again.sync(`${workspace}/a.fk`);
      const answer = await again.request<{ range: unknown }>('textDocument/definition', {
        textDocument: { uri: synced.uri },
        position: { line: 1, character: 9 },
      });
      expect(answer.range).toEqual({ start: { line: 1, character: 9 }, end: { line: 1, character: 9 } });
      expect(ls.serverPids()).not.toContain(pid);
    } finally {
      await ls.dispose();
    }
  }, 20_000);
});
