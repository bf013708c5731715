import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { latheAsync } from '../../support/cli.js';
import { closeFakeServers, runHeadless } from '../../support/headless_run.js';
import { eventually } from '../../support/processes.js';
import { needs } from '../../support/required_programs.js';
import { tempDir } from '../../support/runtime_fixtures.js';

/** A tmux server of its own (a socket in a temp folder): the user's tmux is never touched. */
const socket = join(tempDir('lathe-tmux-'), 'sock');
const tmux = (...args: string[]) =>
  execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
/** What lathe sees inside tmux: `$TMUX` names the server's socket. */
const insideTmux = { TMUX: `${socket},0,0` };

beforeAll(async () => {
  tmux(
    'new-session',
    '-d',
    '-s',
    'work',
    '-x',
    '80',
    '-y',
    '12',
    `printf 'server listening on :3000\\nGET / 200\\n'; exec sleep 600`,
  );
  await eventually(() => tmux('capture-pane', '-p', '-t', 'work').includes('GET / 200'));
});
afterAll(() => {
  tmux('kill-server');
});
afterEach(closeFakeServers);

/** The session's command logs live under a temp documents-root, which the sandbox's private /tmp hides. */
function homeWithoutSandbox(): string {
  const home = tempDir('lathe-home-');
  mkdirSync(join(home, 'settings'));
  writeFileSync(join(home, 'settings', 'settings.json'), JSON.stringify({ sandbox: { mode: 'off' } }));
  return home;
}

function capture(
  input: object,
  env: Record<string, string> = insideTmux,
  features = ['--feature', 'terminal_panel'],
) {
  return latheAsync(['tool', 'terminal_capture', ...features, '--input', JSON.stringify(input)], {
    cwd: tempDir(),
    env: { LATHE_HOME: tempDir('lathe-home-'), LATHE_FEATURES: '', NODE_ENV: 'test', ...env },
  });
}

needs('tmux')('terminal_capture through lathe tool', () => {
  it('prints the visible text of a tmux pane', async () => {
    const r = await capture({ target: 'work:0.0' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^tmux pane %\d+ work:0\.0 \(sleep, 80x12\):\nserver listening on :3000\nGET \/ 200\n$/,
    );
  });
});

needs('tmux')('terminal_capture in a lathe -p run', () => {
  it("reads a tmux pane and a background command's panel for the model", async () => {
    const saved = process.env.TMUX;
    process.env.TMUX = insideTmux.TMUX;
    try {
      const run = await runHeadless(
        tempDir(),
        [
          {
            toolCalls: [
              {
                name: 'execute_command',
                input: {
                  command: 'echo panel-line-1; echo panel-line-2; exec sleep 600',
                  run_in_background: true,
                },
              },
            ],
          },
          {
            // Waits for the output to reach the log: what the panel shows is then known.
            respond: (req) => {
              const log =
                /Output goes to (\S+);/.exec(req.toolResults[0]?.content ?? '')?.[1] ?? 'missing.log';
              return {
                toolCalls: [
                  {
                    name: 'execute_command',
                    input: { command: `until grep -q panel-line-2 ${log}; do sleep 0.05; done` },
                  },
                ],
              };
            },
          },
          { toolCalls: [{ name: 'terminal_capture', input: {} }] },
          { toolCalls: [{ name: 'terminal_capture', input: { target: 'work' } }] },
          { toolCalls: [{ name: 'attempt_completion', input: { result: 'Seen.' } }] },
        ],
        ['--feature', 'terminal_panel', '--yolo'],
        { home: homeWithoutSandbox() },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.requests[3].toolResults[0].content).toMatch(
        /^Command panel cmd_[0-9a-f]{8} \(running\): echo panel-line-1; echo panel-line-2; exec sleep 600\npanel-line-1\npanel-line-2$/,
      );
      expect(run.requests[4].toolResults[0].content).toMatch(
        /^tmux pane %\d+ work:0\.0 \(sleep, 80x12\):\nserver listening on :3000\nGET \/ 200$/,
      );
    } finally {
      if (saved === undefined) delete process.env.TMUX;
      else process.env.TMUX = saved;
    }
  });
});
