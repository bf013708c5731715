import { appendFileSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/runtime/create_runtime.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

/** A project whose tests lie outside `tsconfig.json`'s `include`, as ky's do. */
const OUTSIDE = fileURLToPath(new URL('../fixtures/lsp/ts_outside/', import.meta.url));

let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.dispose();
  runtime = undefined;
});

function open(workspace: string): Runtime {
  runtime = createRuntime({ cwd: workspace, documentsRoot: tempDir('lathe-home-'), yolo: true, env: {} });
  return runtime;
}

function outsideProject(): string {
  const workspace = tempDir('lathe-lsp-outside-');
  cpSync(OUTSIDE, workspace, { recursive: true });
  return workspace;
}

const count = (text: string, word: string) => text.split(new RegExp(`\\b${word}\\b`)).length - 1;

describe('typescript-language-server and the files outside its project', () => {
  it('renames in a file tsconfig.json leaves out, which lathe never opened: all or nothing', async () => {
    const workspace = outsideProject();
    const result = await open(workspace).runTool('rename', {
      path: 'source/body-size.ts',
      symbol: 'getBodySize',
      new_name: 'bodySizeOf',
    });
    expect(result.text).toMatch(/^Renamed getBodySize → bodySizeOf: 9 edits in 3 files\./);
    expect(result.text).toContain('test/body-size.ts: 6 edits');
    for (const file of ['source/body-size.ts', 'source/index.ts', 'test/body-size.ts']) {
      const text = readFileSync(join(workspace, file), 'utf8');
      expect(count(text, 'getBodySize'), file).toBe(0);
    }
    expect(result.text).toMatch(/\ndiagnostics: clean$/);
  }, 90_000);

  it('refuses a rename that would leave a whole-word use of the old name, listing it; accepts it when told', async () => {
    const workspace = outsideProject();
    appendFileSync(join(workspace, 'test/body-size.ts'), '// getBodySize counts UTF-16 code units.\n');
    const before = readFileSync(join(workspace, 'test/body-size.ts'), 'utf8');
    const refused = await open(workspace).runTool('rename', {
      path: 'source/body-size.ts',
      symbol: 'getBodySize',
      new_name: 'bodySizeOf',
    });
    expect(refused.isError).toBe(true);
    expect(refused.text).toBe(
      "The typescript server's rename of getBodySize would leave 1 whole-word use of the old name unchanged; nothing was renamed.\n" +
        'test/body-size.ts\n  6:4  // getBodySize counts UTF-16 code units.\n' +
        'Change those places yourself, or, if they are meant to stay (strings, comments, another symbol of that name), call rename again with accept_leftovers: true.',
    );
    expect(readFileSync(join(workspace, 'test/body-size.ts'), 'utf8')).toBe(before);
    const accepted = await runtime!.runTool('rename', {
      path: 'source/body-size.ts',
      symbol: 'getBodySize',
      new_name: 'bodySizeOf',
      accept_leftovers: true,
    });
    expect(accepted.text).toMatch(/^Renamed getBodySize → bodySizeOf: 9 edits in 3 files\./);
    expect(accepted.text).toContain(
      'Left with the old name (accept_leftovers):\ntest/body-size.ts\n  6:4  // getBodySize counts UTF-16 code units.',
    );
  }, 90_000);

  it('gives the errors an edit causes in a file that imports it, never opened before', async () => {
    const workspace = outsideProject();
    const rt = open(workspace);
    await rt.runTool('read_file', { path: 'source/body-size.ts' });
    const result = await rt.runTool('edit_file', {
      path: 'source/body-size.ts',
      old_string: 'body: string | undefined',
      new_string: 'body: string',
    });
    expect(result.text).toContain('\ndiagnostics: 2 errors\n');
    expect(result.text).toMatch(
      /\n {2}source\/index\.ts:3:38 error TS2345: Argument of type 'undefined' is not assignable to parameter of type 'string'\./,
    );
    expect(result.text).toMatch(/\n {2}test\/body-size\.ts:3:75 error TS2345: /);
  }, 90_000);

  it('finds every reference in a project without tsconfig.json, each file opened first', async () => {
    const workspace = writeTree({
      'package.json': '{ "name": "plain", "type": "module" }\n',
      'lib/total.js': 'export function total(items) {\n  return items.length;\n}\n',
      'lib/report.js': "import { total } from './total.js';\nexport const line = 'n=' + total([1]);\n",
      'bin/cli.js': "import { total } from '../lib/total.js';\nconsole.log(total([]));\n",
    });
    const result = await open(workspace).runTool('find_references', {
      path: 'lib/total.js',
      symbol: 'total',
    });
    expect(result.text).toMatch(/^5 references to total:\n/);
    expect(result.text).toContain('bin/cli.js\n  1:10');
    expect(result.text).toContain('lib/report.js\n  1:10');
  }, 90_000);
});

describe('pyright and the modules it was not told of', () => {
  it('renames a function in every module that uses it', async () => {
    const workspace = writeTree({
      'pyproject.toml': '[project]\nname = "shop"\nversion = "0.1.0"\n',
      'shop/__init__.py': '',
      'shop/prices.py': 'def net_price(gross: float) -> float:\n    return gross / 1.2\n',
      'shop/cart.py':
        'from shop.prices import net_price\n\n\ndef cart_total(items: list[float]) -> float:\n    return sum(net_price(i) for i in items)\n',
      'tests/test_prices.py': 'from shop.prices import net_price\n\nassert net_price(1.2) == 1.0\n',
    });
    const result = await open(workspace).runTool('rename', {
      path: 'shop/prices.py',
      symbol: 'net_price',
      new_name: 'price_before_tax',
    });
    expect(result.text).toMatch(/^Renamed net_price → price_before_tax: 5 edits in 3 files\./);
    for (const file of ['shop/cart.py', 'tests/test_prices.py'])
      expect(count(readFileSync(join(workspace, file), 'utf8'), 'net_price'), file).toBe(0);
  }, 90_000);
});

describe('a rename the text search cannot confirm', () => {
  it('refuses even a preview when a string elsewhere holds the name', async () => {
    const workspace = outsideProject();
    writeFileSync(join(workspace, 'source/notes.ts'), "export const label = 'getBodySize';\n");
    const result = await open(workspace).runTool('rename', {
      path: 'source/body-size.ts',
      symbol: 'getBodySize',
      new_name: 'bodySizeOf',
      preview: true,
    });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("source/notes.ts\n  1:23  export const label = 'getBodySize';");
  }, 90_000);
});
