import { SLASH_COMMAND_NAMES } from '../../config/commands/builtin_names.js';
import type { Runtime } from '../../runtime/create_runtime.js';
import type { UiStore } from '../state/store.js';
import type { ResumedSession } from './host.js';
import { replayEntries } from './replay.js';

const GRAY = { color: 'muted' } as const;

/** The first lines: where lathe runs and with what, how to start, and any settings warnings. */
export function showWelcome(store: UiStore, runtime: Runtime, modelName: string | undefined): void {
  const mode = runtime.conditions.mode === 'plan' ? 'Plan' : 'Act';
  store.add({
    kind: 'panel',
    lines: [
      [
        { text: 'lathe', style: { bold: true } },
        { text: ` · ${modelName ?? 'no model (choose one with /model)'} · ${runtime.cwd}`, style: GRAY },
      ],
      [
        {
          text: `${mode} mode. /help for commands · @ attaches a file · ! runs a command · Shift+Tab changes mode`,
          style: GRAY,
        },
      ],
    ],
  });
  const shadowed = runtime.commands.shadowedBy(SLASH_COMMAND_NAMES);
  for (const warning of [...runtime.warnings, ...shadowed])
    store.add({ kind: 'notice', tone: 'warn', text: warning });
}

/** The end of a resumed conversation, as it was shown, and what was skipped reading its log. */
export function showResumed(store: UiStore, session: ResumedSession, cwd?: string): void {
  for (const entry of replayEntries(session.recent ?? [], undefined, cwd)) store.add(entry);
  for (const warning of session.warnings ?? []) store.add({ kind: 'notice', tone: 'warn', text: warning });
  store.add({ kind: 'notice', tone: 'info', text: `Resumed session ${session.id}.` });
}
