import { collectProcess } from '../../util/collect_process.js';

/** A tmux target as tmux names panes (`%3`, `work:1.0`, `work`); never an option. */
const TARGET = /^[A-Za-z0-9_%$@][A-Za-z0-9_.:%$@-]*$/;
const TMUX_TIMEOUT_MS = 5_000;

export function tmuxTargetProblem(target: string): string | undefined {
  return TARGET.test(target)
    ? undefined
    : `"${target}" is not a tmux target: use a pane id (%3), session:window.pane (work:1.0) or a session name`;
}

/**
 * Runs tmux against the server lathe would reach from its terminal (`$TMUX` inside tmux, else
 * the user's default server); the output, or one line saying what went wrong.
 */
export async function runTmux(
  args: string[],
): Promise<{ ok: true; stdout: string } | { ok: false; error: string }> {
  const run = await collectProcess(['tmux', ...args], { timeoutMs: TMUX_TIMEOUT_MS });
  if (run.error?.code === 'ENOENT') return { ok: false, error: 'tmux is not on PATH' };
  if (run.error || run.code === null)
    return { ok: false, error: `tmux did not answer: ${run.error?.message ?? 'timed out'}` };
  if (run.code !== 0) {
    const said = run.stderr.trim().split('\n')[0] ?? '';
    if (/no server running|error connecting/.test(said))
      return {
        ok: false,
        error: 'no tmux server is running for this user (start tmux, or run lathe inside it)',
      };
    return { ok: false, error: said || `tmux exited with status ${run.code}` };
  }
  return { ok: true, stdout: run.stdout };
}

/** The panes of every session, one line each: id, place, program, size. */
export async function listPanes(): Promise<{ ok: true; lines: string[] } | { ok: false; error: string }> {
  const listed = await runTmux([
    'list-panes',
    '-a',
    '-F',
    '#{pane_id} #{session_name}:#{window_index}.#{pane_index} (#{pane_current_command}, #{pane_width}x#{pane_height})',
  ]);
  if (!listed.ok) return listed;
  return { ok: true, lines: listed.stdout.split('\n').filter((line) => line.trim() !== '') };
}

/** The visible text of one pane, trailing blank lines dropped, and a line describing the pane. */
export async function capturePane(
  target: string,
): Promise<{ ok: true; pane: string; text: string } | { ok: false; error: string }> {
  const described = await runTmux([
    'display-message',
    '-p',
    '-t',
    target,
    '#{pane_id} #{session_name}:#{window_index}.#{pane_index} (#{pane_current_command}, #{pane_width}x#{pane_height})',
  ]);
  if (!described.ok) return described;
  const captured = await runTmux(['capture-pane', '-p', '-t', target]);
  if (!captured.ok) return captured;
  return { ok: true, pane: described.stdout.trim(), text: captured.stdout.replace(/\s+$/, '') };
}
