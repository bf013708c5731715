import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { LanguageServers } from '../../src/lsp/language_servers.js';
import { createRuntime, type Runtime } from '../../src/runtime/create_runtime.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

/** The servers installed as development dependencies (bash, YAML, JSON, CSS, HTML), then the system's. */
const BIN = fileURLToPath(new URL('../../node_modules/.bin', import.meta.url));
const PATH = `${BIN}:${process.env.PATH}`;
const FAKE = fileURLToPath(new URL('../support/lsp/fake_language_server.mjs', import.meta.url));

let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.dispose();
  runtime = undefined;
});

function open(files: Record<string, string>, settings: Record<string, unknown> = {}, path = PATH) {
  const workspace = writeTree(files);
  runtime = createRuntime({
    cwd: workspace,
    documentsRoot: tempDir('lathe-home-'),
    features: ['lsp'],
    yolo: true,
    env: { PATH: path },
    settings,
  });
  return runtime;
}

const GREET = {
  'a.lua': 'local function greet(name)\n  return "hi " .. name\nend\nprint(greet("x"))\n',
  'b.rb': 'def greet(name) = "hi #{name}"\nputs greet("x")\n',
  'C.java': 'class C {\n  static String greet(String n) { return n; }\n  void m() { greet("x"); }\n}\n',
  'pom.xml': '<project/>\n',
  'd.kt': 'fun greet(n: String) = n\nfun main() = println(greet("x"))\n',
  'notes.txt': 'regreet greet\n',
};

describe('find_references without a working server', () => {
  it('is a whole-word text search in every language, saying so', async () => {
    // A PATH without lua-language-server, ruby-lsp or jdtls.
    const rt = open(GREET, {}, '/usr/bin:/bin');
    const lua = await rt.runTool('find_references', { path: 'a.lua', anchor: 'greet(name' });
    expect(lua.isError).toBe(false);
    expect(lua.text).toMatch(
      /^No language server for lua: these are whole-word text matches of greet \(they may include unrelated uses and miss renamed imports\)\.\n/,
    );
    expect(lua.text).toContain('a.lua\n  1:16  local function greet(name)\n  4:7  print(greet("x"))');
    expect(lua.text).toContain('notes.txt\n  1:9  regreet greet');
    const ruby = await rt.runTool('find_references', { path: 'b.rb', line: 1, column: 5 });
    expect(ruby.text).toMatch(/^No language server for ruby: /);
    const java = await rt.runTool('find_references', { path: 'C.java', symbol: 'C.greet' });
    expect(java.text).toMatch(/^No language server for java: [\s\S]*\nC\.java\n {2}2:17 /);
    const kotlin = await rt.runTool('find_references', { path: 'd.kt', anchor: 'greet(n' });
    expect(kotlin.text).toMatch(/^No language server knows d\.kt: /);
  });

  it('is the text search when the server cannot start, with its reason', async () => {
    const rt = open(
      { 'a.fk': 'function greet\ngreet\n' },
      {
        lsp: {
          servers: {
            fake: {
              command: process.execPath,
              args: [FAKE, '--stdio', '--exit-at-start'],
              languages: ['fakelang'],
              extensions: ['.fk'],
            },
          },
        },
      },
    );
    const result = await rt.runTool('find_references', { path: 'a.fk', anchor: 'greet', occurrence: 1 });
    expect(result.isError).toBe(false);
    expect(result.text).toMatch(
      /^The fakelang language server is unavailable \(the fake language server did not start: .*cannot start\): these are whole-word text matches of greet/,
    );
    expect(result.text).toContain('a.fk\n  1:10  function greet\n  2:1  greet');
  }, 30_000);
});

describe('finding servers', () => {
  it('does not count a rustup proxy without the rust-analyzer component as found', async () => {
    const bin = tempDir('lathe-rustup-');
    const proxy = join(bin, 'rust-analyzer');
    writeFileSync(
      proxy,
      "#!/bin/sh\necho \"error: Unknown binary 'rust-analyzer' in official toolchain 'stable-x86_64-unknown-linux-gnu'.\" >&2\nexit 1\n",
    );
    chmodSync(proxy, 0o755);
    const rows = await new LanguageServers({ path: bin }).probedStatus();
    const rust = rows.find((r) => r.name === 'rust-analyzer');
    expect(rust).toMatchObject({
      found: false,
      command: proxy,
      state: 'unavailable',
      problem:
        "rust-analyzer --version failed: error: Unknown binary 'rust-analyzer' in official toolchain 'stable-x86_64-unknown-linux-gnu'.",
      install: 'rustup component add rust-analyzer',
    });
  });

  it('finds the servers on PATH that start: by their version, or by a handshake', async () => {
    const rows = await new LanguageServers({ path: PATH }).probedStatus();
    const byName = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect(byName['bash-language-server']).toMatchObject({ found: true, version: '5.8.1' });
    expect(byName['yaml-language-server']).toMatchObject({ found: true, version: '1.25.0' });
    for (const name of [
      'vscode-json-language-server',
      'vscode-css-language-server',
      'vscode-html-language-server',
    ])
      expect(byName[name], name).toMatchObject({ found: true, state: 'not started' });
    expect(byName.clangd).toMatchObject({
      found: true,
      version: expect.stringMatching(/clangd version \d+/),
    });
    expect(byName.gopls.found).toBe(false);
  }, 30_000);
});

describe('servers from npm and Debian, for real', () => {
  it('bash-language-server finds the references of a shell function', async () => {
    const rt = open({ 'deploy.sh': '#!/bin/bash\ndeploy() { echo up; }\ndeploy\nredeploy\n' });
    const result = await rt.runTool('find_references', { path: 'deploy.sh', anchor: 'deploy()' });
    expect(result.text).toBe(
      '2 references to deploy:\ndeploy.sh\n  2:1  deploy() { echo up; }\n  3:1  deploy',
    );
  }, 60_000);

  it('yaml-language-server and vscode-json-language-server give the syntax errors an edit makes', async () => {
    const rt = open({ 'ci.yaml': 'name: ci\n', 'data.json': '{}\n' });
    const yaml = await rt.runTool('write_to_file', { path: 'ci.yaml', content: 'name: ci\nsteps: [a, b\n' });
    expect(yaml.text).toMatch(/\ndiagnostics: 1 error\n {2}ci\.yaml:\d+:\d+ error .*Flow sequence/);
    const json = await rt.runTool('write_to_file', { path: 'data.json', content: '{"a": 1,, "b": 2}\n' });
    expect(json.text).toMatch(/\ndiagnostics: \d+ errors?\n {2}data\.json:1:\d+ error/);
    const fixed = await rt.runTool('write_to_file', { path: 'data.json', content: '{"a": 1, "b": 2}\n' });
    expect(fixed.text).toMatch(/\ndiagnostics: clean$/);
  }, 60_000);

  it('vscode-css-language-server and vscode-html-language-server list a file’s symbols', async () => {
    const rt = open({
      'site.css': 'main p { color: red; }\n.note { margin: 0; }\n',
      'index.html': '<html><body><main id="top"><p>hi</p></main></body></html>\n',
    });
    const css = await rt.runTool('lsp', { operation: 'document_symbols', path: 'site.css' });
    expect(css.text).toMatch(/main p[\s\S]*\.note/);
    const html = await rt.runTool('lsp', { operation: 'document_symbols', path: 'index.html' });
    expect(html.text).toContain('main#top');
  }, 60_000);

  it('clangd finds a definition and the error an edit makes', async () => {
    const rt = open({
      'compile_flags.txt': '-std=c11\n',
      'util.h': 'int twice(int x);\n',
      'main.c':
        '#include "util.h"\nint twice(int x) { return 2 * x; }\nint main(void) { return twice(1); }\n',
    });
    const definition = await rt.runTool('lsp', {
      operation: 'definition',
      path: 'main.c',
      anchor: 'twice(1)',
    });
    expect(definition.text).toContain('main.c\n  2:5  int twice(int x) { return 2 * x; }');
    const broken = await rt.runTool('write_to_file', {
      path: 'main.c',
      content: '#include "util.h"\nint main(void) { return twice(1) + nothing; }\n',
    });
    expect(broken.text).toMatch(
      /\ndiagnostics: 1 error\n {2}main\.c:2:36 error.*undeclared identifier 'nothing'/,
    );
  }, 60_000);
});
