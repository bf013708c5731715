import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { statusPanel } from '../../src/tui/session/status_panel.js';
import { freshStatus } from '../../src/tui/state/store.js';
import { createWorktree } from '../../src/worktree/index.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { repository } from '../worktree/repos.js';

const text = (lines: { text: string }[][]) =>
  lines.map((line) => line.map((s) => s.text).join('')).join('\n');

describe('/status in a worktree', () => {
  it('names the worktree and its branch once the session entered one, and not before', async () => {
    const repo = repository();
    const home = tempDir('lathe-home-');
    const runtime = createRuntime({ cwd: repo, documentsRoot: home, env: {} });
    const before = text((await statusPanel({ runtime, status: freshStatus() })).lines);
    expect(before).not.toContain('worktree');
    const worktree = await createWorktree({ repo, name: 'side', documentsRoot: home });
    runtime.place.moveTo(worktree);
    const after = text((await statusPanel({ runtime, status: freshStatus() })).lines);
    expect(after).toMatch(new RegExp(`worktree +${worktree.dir} \\(branch lathe/side\\)`));
    await runtime.dispose();
  });
});
