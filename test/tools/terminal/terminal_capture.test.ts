import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { eventually } from '../../support/processes.js';
import { needs } from '../../support/required_programs.js';
import { tempDir } from '../../support/runtime_fixtures.js';
import { disposeAll, runtimeWith } from '../../tasks/helpers.js';

/** A tmux server of its own (a socket in a temp folder): the user's tmux is never touched. */
const socket = join(tempDir('lathe-tmux-'), 'sock');
const tmux = (...args: string[]) =>
  execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const savedTmux = process.env.TMUX;

beforeAll(async () => {
  tmux(
    'new-session',
    '-d',
    '-s',
    'logs',
    '-x',
    '60',
    '-y',
    '8',
    `printf 'tail -f app.log\\n'; exec sleep 600`,
  );
  await eventually(() => tmux('capture-pane', '-p', '-t', 'logs').includes('tail -f'));
  // lathe reaches the tmux server of its terminal: inside tmux, `$TMUX` names its socket.
  process.env.TMUX = `${socket},0,0`;
});
afterAll(() => {
  tmux('kill-server');
  if (savedTmux === undefined) delete process.env.TMUX;
  else process.env.TMUX = savedTmux;
});
afterEach(disposeAll);

const panelRuntime = () => runtimeWith(['terminal_panel'], { settings: { sandbox: { mode: 'off' } } });

needs('tmux')('terminal_capture', () => {
  it('is offered only with the terminal_panel feature, read-only', () => {
    expect(runtimeWith([]).pool.map((t) => t.name)).not.toContain('terminal_capture');
    const tool = panelRuntime().pool.find((t) => t.name === 'terminal_capture');
    expect(tool?.kind).toBe('read');
  });

  it('names the panes there are when the target is none of them', async () => {
    const r = await panelRuntime().runTool('terminal_capture', { target: 'nowhere' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(
      /^tmux has no pane "nowhere"\. Name one of these tmux panes as target:\n%\d+ logs:0\.0 \(sleep, 60x8\)$/,
    );
  });

  it('lists the panes when no target is given and no background command runs', async () => {
    const r = await panelRuntime().runTool('terminal_capture', {});
    expect(r.text).toMatch(
      /^No background command runs in this session\. Name one of these tmux panes as target:\n%\d+ logs:0\.0/,
    );
  });

  it('refuses a target that tmux would read as an option', async () => {
    const r = await panelRuntime().runTool('terminal_capture', { target: '-S/tmp/other' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^"-S\/tmp\/other" is not a tmux target/);
  });

  it('says so when no tmux server runs', async () => {
    const saved = process.env.TMUX;
    process.env.TMUX = `${join(tempDir(), 'none')},0,0`;
    try {
      const r = await panelRuntime().runTool('terminal_capture', { target: 'logs' });
      expect(r.text).toMatch(/^Could not capture "logs": no tmux server is running/);
    } finally {
      process.env.TMUX = saved;
    }
  });

  it("shows a background command's panel: its last lines, colours and redrawn progress removed", async () => {
    const rt = panelRuntime();
    const command = "printf '\\033[32mok\\033[0m\\nprogress 10%%\\rprogress 100%%\\n'; exec sleep 600";
    const started = await rt.runTool('execute_command', { command, run_in_background: true });
    const { id, outputPath } = started.data as { id: string; outputPath: string };
    await eventually(() => existsSync(outputPath) && readFileSync(outputPath, 'utf8').includes('100%'));
    const r = await rt.runTool('terminal_capture', { target: id });
    expect(r.text).toBe(`Command panel ${id} (running): ${command}\nok\nprogress 100%`);
    const unknown = await rt.runTool('terminal_capture', { target: 'cmd_00000000' });
    expect(unknown.text).toBe(`No background command cmd_00000000 in this session; there are: ${id}.`);
  });
});
