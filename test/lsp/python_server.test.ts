import { cpSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/runtime/create_runtime.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { expectGolden } from './golden.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/lsp/py/', import.meta.url));

/** pyright, as lathe bundles it, on a copy of the fixture project. */
describe('pyright on the fixture project', () => {
  let runtime: Runtime;

  beforeAll(() => {
    const workspace = tempDir('lathe-lsp-py-');
    cpSync(FIXTURE, workspace, { recursive: true });
    runtime = createRuntime({
      cwd: workspace,
      documentsRoot: tempDir('lathe-home-'),
      features: ['lsp'],
      yolo: true,
      env: {},
    });
  });
  afterAll(() => runtime.dispose());

  it('finds the definition of a class used in another module, as the golden file has it', async () => {
    const result = await runtime.runTool('lsp', {
      operation: 'definition',
      path: 'main.py',
      anchor: 'Square(2.0)',
    });
    expect(result.isError, result.text).toBe(false);
    expectGolden('py-definition.txt', result.text);
  }, 90_000);

  it('finds the references of a method, as the golden file has them', async () => {
    const result = await runtime.runTool('find_references', { path: 'shapes.py', symbol: 'Shape.area' });
    expectGolden('py-references.txt', result.text);
  }, 60_000);

  it('gives the hover of a function, as the golden file has it', async () => {
    const result = await runtime.runTool('lsp', {
      operation: 'hover',
      path: 'shapes.py',
      symbol: 'total_area',
    });
    expectGolden('py-hover.txt', result.text);
  }, 60_000);

  it('reports a type error an edit introduces, and clean after the fix', async () => {
    await runtime.runTool('read_file', { path: 'shapes.py' });
    const broken = await runtime.runTool('edit_file', {
      path: 'shapes.py',
      old_string: 'return 0.0',
      new_string: 'return "zero"',
    });
    expect(broken.text).toMatch(
      /\ndiagnostics: 1 error\n {2}shapes\.py:3:16 error reportReturnType: Type "Literal\['zero'\]" is not assignable to return type "float"/,
    );
    const fixed = await runtime.runTool('edit_file', {
      path: 'shapes.py',
      old_string: 'return "zero"',
      new_string: 'return 0.0',
    });
    expect(fixed.text).toMatch(/\ndiagnostics: clean$/);
  }, 60_000);
});
