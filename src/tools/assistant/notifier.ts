import { open } from 'node:fs/promises';
import type { NotificationDelivery, Notifier } from '../../tool/context/session_tools.js';
import { collectProcess } from '../../util/collect_process.js';
import { findOnPath } from '../../util/find_on_path.js';

/** The notification escape sequence a terminal shows as a desktop notification, when it is known to. */
export type TerminalNotification = 'osc9' | 'osc777';

/**
 * Which sequence the terminal lathe runs in shows, from what terminals say of themselves.
 * Unknown terminals, and multiplexers (tmux, screen), which do not pass these sequences on,
 * get none: they get the bell, or notify-send.
 */
export function terminalNotification(env: NodeJS.ProcessEnv): TerminalNotification | undefined {
  const term = env.TERM ?? '';
  if (env.TMUX || term.startsWith('screen') || term.startsWith('tmux')) return undefined;
  const program = env.TERM_PROGRAM ?? '';
  if (['iTerm.app', 'WezTerm', 'ghostty'].includes(program)) return 'osc9';
  if (term === 'xterm-kitty' || env.WT_SESSION || env.ConEmuPID) return 'osc9';
  if (term.startsWith('foot') || term.startsWith('rxvt-unicode')) return 'osc777';
  return undefined;
}

/** Text safe inside an escape sequence: control characters (ESC, BEL, …) become spaces. */
const plain = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();

/** The bytes that make a terminal show the notification. */
export function notificationSequence(kind: TerminalNotification, title: string, body: string): string {
  if (kind === 'osc777') {
    // Fields are separated by `;`: the title may not hold one.
    return `\u001b]777;notify;${plain(title).replaceAll(';', ',')};${plain(body)}\u001b\\`;
  }
  // `9;<digit>` is a command of its own in some terminals; the message starts with its title.
  const message = `${plain(title)}: ${plain(body)}`;
  return `\u001b]9;${/^\d/.test(message) ? `lathe ${message}` : message}\u0007`;
}

export interface NotifierOptions {
  env: NodeJS.ProcessEnv;
  /** The terminal written to; default the process's controlling terminal. */
  terminal?: string;
}

/**
 * Notifications through the terminal's own escape sequence (OSC 9 or OSC 777) where the
 * terminal is known to show it, else notify-send when it is on PATH, else the terminal bell.
 * The terminal is the controlling one (`/dev/tty`), whatever stdout is piped to.
 */
export class TerminalNotifier implements Notifier {
  constructor(private readonly options: NotifierOptions) {}

  async notify(title: string, body: string): Promise<NotificationDelivery[]> {
    const { env } = this.options;
    const deliveries: NotificationDelivery[] = [];
    const sequence = terminalNotification(env);
    if (sequence) {
      const sent = await this.writeTerminal(notificationSequence(sequence, title, body));
      deliveries.push({ channel: sequence, ...sent });
      if (sent.ok) return deliveries;
    }
    const notifySend = findOnPath(['notify-send'], env);
    if (notifySend) {
      const run = await collectProcess([notifySend, '--app-name=lathe', '--', plain(title), plain(body)], {
        env,
        timeoutMs: 5_000,
      });
      const ok = run.code === 0;
      const why = run.error?.message ?? (run.stderr.trim() || `exit code ${run.code}`);
      deliveries.push({ channel: 'notify-send', ok, ...(ok ? {} : { error: why }) });
      if (ok) return deliveries;
    }
    deliveries.push({ channel: 'bell', ...(await this.writeTerminal('\u0007')) });
    return deliveries;
  }

  private async writeTerminal(bytes: string): Promise<{ ok: boolean; error?: string }> {
    const path = this.options.terminal ?? '/dev/tty';
    try {
      const handle = await open(path, 'w');
      try {
        await handle.write(bytes);
      } finally {
        await handle.close();
      }
      return { ok: true };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return {
        ok: false,
        error: code === 'ENXIO' || code === 'ENOENT' ? 'no terminal' : (error as Error).message,
      };
    }
  }
}
