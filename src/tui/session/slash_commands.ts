import { globalSettingsPath, workspaceSettingsPath } from '../../config/paths.js';
import { EFFORTS, type Effort, PROFILES, type Profile } from '../../config/types.js';
import { listSessions } from '../../session/catalog.js';
import { contextReportText } from '../../tool/context/conversation.js';
import { staticFacts } from '../../tool/static_facts.js';
import type { Tool } from '../../tool/types.js';
import { keyHelpRows } from '../input/keybindings.js';
import { activeTheme, isThemeName, setTheme, THEME_NAMES } from '../render/style.js';
import { rewindToCheckpoint, undoLastTurn } from './checkpoint_commands.js';
import type { CommandHost } from './command_host.js';
import { exportConversation } from './export_session.js';
import { hooksPanel } from './hooks_panel.js';
import { mcpPanel } from './mcp_panel.js';
import { modelChoices } from './model_picker.js';
import { permissionsPanel, removePermissionRule, type SettingsFiles } from './permissions_panel.js';
import { rulesPanel } from './rules_panel.js';
import { skillsPanel } from './skills_panel.js';
import { row, statusPanel, usageRows } from './status_panel.js';

interface SlashCommand {
  name: string;
  args?: string;
  summary: string;
  /** Runs only while the agent is idle. */
  idle?: boolean;
  run(session: CommandHost, args: string): Promise<void> | void;
}

const INIT_PROMPT = `Write an AGENTS.md file at the root of this repository, for coding agents that will work here.
Look at the repository first: its layout, languages, package manifests, build, test and lint commands, CI, and
conventions you can see in the code. Then write AGENTS.md (or improve the existing one) with: a one-paragraph
overview; how to install, build, run and test (exact commands); the layout of the code; conventions to follow;
and things to avoid. Keep it short and specific to this repository; no generic advice.`;

const newRulePrompt = (what: string) =>
  `Create a rule for this project with the new_rule tool (it writes .agents/rules/<name>.md). ${
    what
      ? `The rule: ${what}`
      : 'Base it on this conversation: the conventions, commands and preferences I stated or that we settled on.'
  }\nPick a short file name, write the rule as brief Markdown instructions, and call new_rule once.`;

/** What the prompt does beyond its keys (those come from the keymap). */
const TYPED: Array<[string, string]> = [
  ['@path', 'attach a file or a folder listing'],
  ['!command', 'run a shell command yourself; its output goes with your next prompt'],
];

export const SLASH_COMMANDS: SlashCommand[] = [
  {
    name: 'help',
    summary: 'commands and keys',
    run: (session) =>
      session.store.add({
        kind: 'panel',
        title: 'Commands',
        lines: [
          ...SLASH_COMMANDS.map((c) => row(`/${c.name}${c.args ? ` ${c.args}` : ''}`, c.summary, 30)),
          [],
          [{ text: 'Keys', style: { bold: true } }],
          ...[...keyHelpRows(), ...TYPED].map(([key, what]) => row(key, what, 30)),
        ],
      }),
  },
  {
    name: 'mode',
    args: '[plan|act|auto]',
    summary: 'show or set the mode (auto: Act with edits approved)',
    run: (session, args) => {
      const wanted = args.trim().toLowerCase();
      if (wanted === 'plan' || wanted === 'act') session.setMode(wanted);
      else if (wanted === 'auto') session.setMode('act', true);
      else if (wanted) return notice(session, `Unknown mode "${wanted}": use plan, act or auto.`, 'error');
      const { mode, autoEdits } = session.store.status;
      notice(session, `Mode: ${mode}${autoEdits ? ' (edits approved)' : ''}`);
    },
  },
  {
    name: 'model',
    args: '[provider/model]',
    summary: 'switch the model (a picker without a name); the conversation goes on',
    idle: true,
    run: async (session, args) => {
      let name = args.trim();
      if (!name) {
        const picked = await session.store.ask<string | undefined>({
          ...modelChoices(session.modelName, session.runtime.settings.model, (m) => session.modelMissing(m)),
          cancelValue: undefined,
        });
        if (!picked || picked === session.modelName) return;
        name = picked;
      }
      await session.switchModel(name);
    },
  },
  {
    name: 'theme',
    args: '[dark|light|plain]',
    summary: 'show or switch the colours for this session (settings "theme" keeps one)',
    run: (session, args) => {
      const wanted = args.trim().toLowerCase();
      if (!wanted) return notice(session, `Theme: ${activeTheme().name}`);
      if (!isThemeName(wanted))
        return notice(session, `Unknown theme "${wanted}": use ${THEME_NAMES.join(', ')}.`, 'error');
      const shown = setTheme(wanted);
      notice(session, `Theme: ${shown}${shown === wanted ? '' : ' (NO_COLOR or TERM=dumb is set)'}`);
    },
  },
  {
    name: 'effort',
    args: '[low|medium|high|off]',
    summary: 'show or set how hard the model thinks (from the next prompt)',
    idle: true,
    run: (session, args) => {
      const wanted = args.trim().toLowerCase();
      if (!wanted) return notice(session, `Effort: ${session.effortName}`);
      if (wanted !== 'off' && !(EFFORTS as readonly string[]).includes(wanted))
        return notice(session, `Unknown effort "${wanted}": use ${EFFORTS.join(', ')} or off.`, 'error');
      session.setEffort(wanted as Effort | 'off');
      notice(session, `Effort: ${wanted}`);
    },
  },
  {
    name: 'profile',
    args: '[standard|lite|simple]',
    summary: 'show or switch the prompt profile',
    idle: true,
    run: (session, args) => {
      const wanted = args.trim() as Profile;
      if (!wanted) return notice(session, `Profile: ${session.runtime.conditions.profile}`);
      if (!PROFILES.includes(wanted))
        return notice(session, `Unknown profile "${wanted}": use ${PROFILES.join(', ')}.`, 'error');
      session.switchProfile(wanted);
      notice(session, `Profile: ${wanted}`);
    },
  },
  {
    name: 'tools',
    summary: 'the tools the model has now',
    run: (session) => {
      const pool = session.runtime.pool;
      session.store.add({
        kind: 'panel',
        title: `Tools (${pool.length}, ${session.runtime.conditions.profile} profile, ${session.runtime.conditions.mode} mode)`,
        lines: pool.map((tool) => row(tool.name, readOnlyNote(tool), 30)),
      });
    },
  },
  {
    name: 'mcp',
    summary: 'the MCP servers: state (connecting, connected, failed, disabled) and tools',
    run: (session) => session.store.add({ kind: 'panel', ...mcpPanel(session.runtime.mcp?.servers()) }),
  },
  {
    name: 'hooks',
    summary: 'the hooks that run at events (settings "hooks"), and where each comes from',
    run: (session) => {
      const { hooks, trust } = session.runtime;
      session.store.add({ kind: 'panel', ...hooksPanel(hooks.set.list(), trust.settings.includes('hooks')) });
    },
  },
  {
    name: 'skills',
    summary: 'the skills: who may start them (/name runs one), what they pre-approve, their warnings',
    run: (session) =>
      session.store.add({ kind: 'panel', ...skillsPanel(session.runtime.skills, session.runtime.workspace) }),
  },
  {
    name: 'compact',
    summary: 'summarize the conversation to free the context',
    idle: true,
    run: (session) => session.compact(),
  },
  {
    name: 'context',
    summary: 'what fills the context: tokens by part, the largest items, the lasting instructions',
    run: async (session) => {
      const report = await session.inspectContext();
      if (!report) return;
      const [title, ...lines] = contextReportText(report).split('\n');
      session.store.add({ kind: 'panel', title, lines: lines.map((text) => [{ text }]) });
    },
  },
  {
    name: 'pin',
    args: '[instruction]',
    summary: 'keep an instruction word for word for the whole session (as a # line); alone: list them',
    run: async (session, args) => {
      const text = args.trim();
      if (text) return session.run(`# ${text.replace(/^#\s*/, '')}`, `/pin ${text}`);
      const report = await session.inspectContext();
      if (!report) return;
      session.store.add({
        kind: 'panel',
        title:
          report.lasting.length > 0
            ? 'Lasting instructions'
            : 'No lasting instructions yet: /pin TEXT, or start a prompt with #.',
        lines: report.lasting.map((text) => [{ text }]),
      });
    },
  },
  {
    name: 'resume',
    args: '[id]',
    summary: 'continue an earlier session of this folder',
    idle: true,
    run: (session, args) => resumeSession(session, args.trim()),
  },
  {
    name: 'sessions',
    summary: 'the sessions of this folder',
    run: (session) => {
      const { documentsRoot, workspace } = session.runtime;
      const found = listSessions({ documentsRoot, workspace }).slice(0, 20);
      session.store.add({
        kind: 'panel',
        title: found.length > 0 ? 'Sessions (resume one with /resume ID)' : 'No sessions here yet.',
        lines: found.map((s) =>
          row(s.id, `${s.updated.slice(0, 16).replace('T', ' ')}  ${s.firstPrompt ?? ''}`, 26),
        ),
      });
    },
  },
  {
    name: 'cost',
    summary: 'tokens and cost of this session',
    run: (session) =>
      session.store.add({ kind: 'panel', title: 'Usage', lines: usageRows(session.store.status) }),
  },
  {
    name: 'status',
    summary: 'model, mode, profile, workspace, session, sandbox, MCP servers, tokens and cost',
    run: async (session) =>
      session.store.add({
        kind: 'panel',
        ...(await statusPanel({
          runtime: session.runtime,
          status: session.store.status,
          modelName: session.modelName,
          effort: session.effortName,
          logPath: session.logPath,
        })),
      }),
  },
  {
    name: 'permissions',
    args: '[remove N]',
    summary: 'the permission rules in effect and where each comes from; remove one you added',
    run: async (session, args) => {
      const files = settingsFiles(session);
      const [verb, which = ''] = args.trim().split(/\s+/);
      if (!verb) return session.store.add({ kind: 'panel', ...permissionsPanel(session.runtime, files) });
      if (verb !== 'remove') return notice(session, 'Use /permissions, or /permissions remove N.', 'error');
      const result = await removePermissionRule(session.runtime, files, which);
      notice(session, result.text, result.error ? 'error' : 'info');
    },
  },
  {
    name: 'export',
    args: '[file]',
    summary: "write the conversation to a Markdown file (default: in the session's folder)",
    run: async (session, args) => {
      const { sessionDir, cwd } = session.runtime;
      const result = await exportConversation({ logPath: session.logPath, sessionDir, cwd, file: args });
      notice(session, result.text, result.error ? 'error' : 'info');
    },
  },
  {
    name: 'clear',
    summary: 'start a new conversation',
    idle: true,
    run: (session) => {
      session.clear();
      notice(session, `New session ${session.runtime.sessionId}.`);
    },
  },
  {
    name: 'undo',
    summary: "take back the files' changes of the last prompt that changed them",
    idle: true,
    run: (session) => undoLastTurn(session),
  },
  {
    name: 'rewind',
    args: '[id]',
    summary: 'back to a checkpoint: its files, the conversation before it, or both',
    idle: true,
    run: (session, args) => rewindToCheckpoint(session, args),
  },
  {
    name: 'rules',
    summary: 'the rule files: which are in the prompt, and why',
    run: (session) => session.store.add({ kind: 'panel', ...rulesPanel(session.runtime.rules) }),
  },
  {
    name: 'newrule',
    args: '[rule]',
    summary: 'write a project rule to .agents/rules/ with the model',
    idle: true,
    run: (session, args) => session.run(newRulePrompt(args.trim()), `/newrule ${args}`.trim()),
  },
  {
    name: 'init',
    summary: 'write an AGENTS.md for this repository with the model',
    idle: true,
    run: (session) => session.run(INIT_PROMPT, '/init'),
  },
  { name: 'exit', summary: 'leave lathe', run: (session) => session.exit() },
];

function readOnlyNote(tool: Tool): string {
  const { readOnly } = staticFacts(tool);
  if (readOnly === 'dynamic') return 'read-only when the input only reads';
  return readOnly === true ? 'read-only' : '';
}

/** The session named, or one picked from this folder's sessions. */
async function resumeSession(session: CommandHost, idOrPrefix: string): Promise<void> {
  let id = idOrPrefix;
  if (!id) {
    const { documentsRoot, workspace, sessionId } = session.runtime;
    const choices = listSessions({ documentsRoot, workspace })
      .filter((s) => s.id !== sessionId)
      .slice(0, 15)
      .map((s) => ({
        label: s.id,
        value: s.id,
        hint: `${s.updated.slice(0, 16).replace('T', ' ')} ${s.firstPrompt ?? ''}`,
      }));
    if (choices.length === 0) return notice(session, 'No other session here to resume.');
    const picked = await session.store.ask<string | undefined>({
      kind: 'pick',
      title: 'Resume which session?',
      choices,
      cancelValue: undefined,
    });
    if (!picked) return;
    id = picked;
  }
  const found = session.findSession(id);
  if (!found) return notice(session, `No session matches "${id}".`, 'error');
  session.resume(found);
}

function settingsFiles(session: CommandHost): SettingsFiles {
  const { workspace, documentsRoot } = session.runtime;
  return { project: workspaceSettingsPath(workspace), user: globalSettingsPath(documentsRoot) };
}

function notice(session: CommandHost, text: string, tone: 'info' | 'error' = 'info'): void {
  session.store.add({ kind: 'notice', tone, text });
}

export async function runSlashCommand(session: CommandHost, line: string): Promise<void> {
  const [, name, args = ''] = /^\/(\S+)\s*([\s\S]*)$/.exec(line) ?? [];
  const command =
    SLASH_COMMANDS.find((c) => c.name === name) ?? (name === 'quit' ? SLASH_COMMANDS.at(-1) : undefined);
  if (!command) {
    const { runCustomCommand } = await import('./custom_command.js');
    if (await runCustomCommand(session, name, args.trim())) return session.store.flush();
    const { runServerPrompt } = await import('./server_prompt.js');
    if (await runServerPrompt(session, line)) return session.store.flush();
    return notice(session, `Unknown command /${name}. /help lists them.`, 'error');
  }
  if (command.idle && session.isRunning)
    return notice(
      session,
      `/${command.name} waits until the agent is idle (press Esc to interrupt it).`,
      'error',
    );
  try {
    await command.run(session, args);
  } catch (error) {
    notice(session, `/${command.name}: ${(error as Error).message}`, 'error');
  }
  session.store.flush();
}
