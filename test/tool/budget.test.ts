import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { headAndTail } from '../../src/tool/budget.js';
import { tempDir } from '../support/runtime_fixtures.js';

describe('result budgeting', () => {
  const runtime = () => createRuntime({ cwd: tempDir(), documentsRoot: tempDir('lathe-home-') });

  it('passes a result within budget through untouched', async () => {
    const r = await runtime().runTool('overflow_test', { chars: 500 });
    expect(r.text).toHaveLength(500);
    expect(r.savedPath).toBeUndefined();
  });

  it('saves an over-budget result whole under the session folder', async () => {
    const rt = runtime();
    const r = await rt.runTool('overflow_test', { chars: 200_000 });
    expect(r.savedPath).toBeDefined();
    expect(r.savedPath!.startsWith(rt.sessionDir)).toBe(true);
    expect(readFileSync(r.savedPath!, 'utf8')).toHaveLength(200_000);
  });

  it('gives the model a head-and-tail preview with the path', async () => {
    const r = await runtime().runTool('overflow_test', { chars: 200_000 });
    expect(r.text.length).toBeLessThan(11_000);
    expect(r.text.startsWith('line 0\nline 1\n')).toBe(true);
    expect(r.text).toMatch(/characters omitted/);
    expect(r.text).toContain(r.savedPath!);
    expect(existsSync(r.savedPath!)).toBe(true);
  });

  it('headAndTail keeps both ends', () => {
    const cut = headAndTail('a'.repeat(50) + 'b'.repeat(50), 20, (n) => `[${n}]`);
    expect(cut).toBe(`${'a'.repeat(12)}\n[80]\n${'b'.repeat(8)}`);
  });
});
