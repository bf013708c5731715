import { stripVTControlCharacters } from 'node:util';
import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import type { BackgroundCommand } from '../../tool/context/background_commands.js';
import { touchesNothing } from '../../tool/declared_subject.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import type { ToolContext, ToolOutput } from '../../tool/types.js';
import { readFileTail } from '../../util/file_tail.js';
import { capturePane, listPanes, tmuxTargetProblem } from './tmux.js';

/** A screenful of the command panel: what a terminal pane would show of a command's output. */
const PANEL_LINES = 40;
const PANEL_TAIL_BYTES = 32 * 1024;

const inputSchema = lazySchema(() =>
  z.strictObject({
    target: z
      .string()
      .min(1)
      .optional()
      .describe(
        'A tmux pane (%3, session:window.pane, or a session name), or a background command id (cmd_…) for its output panel. ' +
          'Default: the newest background command, else the list of tmux panes to pick from',
      ),
  }),
);

/** The last screenful of a background command's output, as the UI's command panel shows it. */
function commandPanel(command: BackgroundCommand): ToolOutput {
  const { text } = readFileTail(command.outputPath, PANEL_TAIL_BYTES);
  // A progress bar redraws its line with \r: the screen shows what came after the last one.
  const lines = stripVTControlCharacters(text)
    .split('\n')
    .map((line) => line.split('\r').at(-1) ?? '')
    .join('\n')
    .replace(/\s+$/, '')
    .split('\n')
    .slice(-PANEL_LINES);
  const state = command.finished
    ? `ended, exit code ${command.exitCode ?? command.signal ?? 'unknown'}`
    : 'running';
  const body = lines.join('\n').trim() === '' ? '(no output yet)' : lines.join('\n');
  return {
    text: `Command panel ${command.id} (${state}): ${command.command}\n${body}`,
    data: { source: 'command', id: command.id, finished: command.finished, lines: lines.length },
  };
}

function newestCommand(ctx: ToolContext): BackgroundCommand | undefined {
  return [...ctx.backgroundCommands.values()].sort((a, b) => b.startedAt - a.startedAt)[0];
}

async function paneChoices(prefix: string): Promise<ToolOutput> {
  const panes = await listPanes();
  if (!panes.ok) return { isError: true, text: `${prefix}; and tmux: ${panes.error}.` };
  return {
    isError: true,
    text: `${prefix}. Name one of these tmux panes as target:\n${panes.lines.join('\n')}`,
    data: { panes: panes.lines },
  };
}

export const terminalCapture = buildTool({
  name: 'terminal_capture',
  inputSchema,
  description:
    'Read the visible text of a terminal pane: a tmux pane (a dev server, a test watcher, a REPL the user has open) ' +
    'or the output panel of a command you started in the background. Use it to see what the user sees there ' +
    'instead of asking them to paste it. Without a target: the newest background command, else the list of panes.',
  availability: { profiles: ['standard'], feature: 'terminal_panel' },
  kind: 'read',
  // Touches only the screen of a terminal lathe runs: nothing the permission engine judges.
  permissionSubject: touchesNothing,
  userFacingName: () => 'Capture terminal',
  detail: (input) => input.target ?? 'newest panel',
  // lathe's own fact: it reads a terminal's visible text, so Plan mode lets it run.
  planModeAllowed: true,
  example: { input: {} },
  async call(input, ctx) {
    const target = input.target;
    if (target === undefined) {
      const newest = newestCommand(ctx);
      if (newest) return commandPanel(newest);
      return paneChoices('No background command runs in this session');
    }
    if (/^cmd_[0-9a-f]+$/.test(target)) {
      const command = ctx.backgroundCommands.get(target);
      if (command) return commandPanel(command);
      const known = [...ctx.backgroundCommands.keys()];
      return {
        isError: true,
        text: `No background command ${target} in this session${known.length ? `; there are: ${known.join(', ')}` : ''}.`,
      };
    }
    const problem = tmuxTargetProblem(target);
    if (problem) return { isError: true, text: problem };
    const captured = await capturePane(target);
    if (!captured.ok) {
      if (/can't find|no such/i.test(captured.error)) return paneChoices(`tmux has no pane "${target}"`);
      return { isError: true, text: `Could not capture "${target}": ${captured.error}.` };
    }
    return {
      text: `tmux pane ${captured.pane}:\n${captured.text === '' ? '(blank)' : captured.text}`,
      data: { source: 'tmux', pane: captured.pane, lines: captured.text.split('\n').length },
    };
  },
});
