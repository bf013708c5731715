import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lathe } from '../support/cli.js';
import { disposePlanRuntimes, planRuntime } from '../support/plan_runtime.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

const env = () => ({ LATHE_HOME: tempDir('lathe-home-'), LATHE_FEATURES: '', NODE_ENV: 'production' });
const REFUSED = /is refused in Plan mode \(Strict Plan Mode is on\)/;
const PLAN_ASKS = /lathe is in Plan mode, and no one is present to approve it/;

afterEach(disposePlanRuntimes);

describe('--strict-plan', () => {
  it('turns Strict Plan Mode on for the run: write_to_file is refused in Plan mode, not asked', () => {
    const cwd = writeTree({ 'a.txt': 'hello\n' });
    const input = JSON.stringify({ path: 'a.txt', content: 'x\n' });
    const r = lathe(
      ['tool', 'write_to_file', '--input', input, '--mode', 'plan', '--yolo', '--strict-plan', '--cwd', cwd],
      {
        env: env(),
      },
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(REFUSED);
    expect(readFileSync(join(cwd, 'a.txt'), 'utf8')).toBe('hello\n');
  });

  it('lists the refused tools in the strict column of lathe tools', () => {
    const r = lathe(['tools', '--json', '--strict-plan', '--cwd', tempDir()], { env: env() });
    const rows: Array<{ name: string; latheFacts: { refusedInStrictPlan: boolean } }> = JSON.parse(r.stdout);
    const refused = rows.filter((row) => row.latheFacts.refusedInStrictPlan).map((row) => row.name);
    expect(refused.sort()).toEqual([
      'apply_patch',
      'edit_file',
      'new_rule',
      'notebook_edit',
      'replace_in_file',
      'write_to_file',
    ]);
  });
});

describe('Strict Plan Mode', () => {
  it('refuses the file-writing tools outright; without it they ask as every change does', async () => {
    const cwd = writeTree({ 'a.txt': 'hello\n' });
    const calls: Array<[string, unknown]> = [
      ['write_to_file', { path: 'a.txt', content: 'x\n' }],
      ['apply_patch', { input: '*** Begin Patch\n*** Add File: b.txt\n+b\n*** End Patch' }],
      ['replace_in_file', { path: 'a.txt', diff: '------- SEARCH\nhello\n=======\nbye\n+++++++ REPLACE' }],
    ];
    for (const [name, input] of calls) {
      expect((await planRuntime({ cwd, strictPlanMode: true }).runTool(name, input)).text, name).toMatch(
        REFUSED,
      );
      const asked = (await planRuntime({ cwd }).runTool(name, input)).text;
      expect(asked, name).toMatch(PLAN_ASKS);
    }
    expect(readFileSync(join(cwd, 'a.txt'), 'utf8')).toBe('hello\n');
  });

  it('lets the changes seed 000 does not name ask, and a preview run', async () => {
    const cwd = writeTree({ 'a.txt': 'hello\n' });
    const rt = planRuntime({ cwd, strictPlanMode: true });
    const change = { glob: '*.txt', find: 'hello', replace: 'bye' };
    expect((await rt.runTool('replace_text', change)).text).toMatch(PLAN_ASKS);
    const preview = await rt.runTool('replace_text', { ...change, preview: true });
    expect(preview.isError, preview.text).toBe(false);
    expect(preview.text).toMatch(/^Preview \(nothing written\)/);
    expect(readFileSync(join(cwd, 'a.txt'), 'utf8')).toBe('hello\n');
  });
});
