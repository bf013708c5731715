import { SessionSettings } from '../config/session_settings.js';
import type { BriefMode } from '../tool/context/session_tools.js';
import { TerminalNotifier } from '../tools/assistant/notifier.js';
import { ReplHost } from '../tools/repl/repl_host.js';
import type { RuntimeConfiguration } from './configuration.js';

/** Concise-output mode, off at the start of a session. */
class BriefState implements BriefMode {
  on = false;
  set(on: boolean): void {
    this.on = on;
  }
}

/**
 * The state and services of a session's assistant and internal tools: brief mode, the settings
 * config changes, notifications, the REPL (ended with `dispose`).
 */
export class SessionToolServices {
  readonly brief: BriefMode = new BriefState();
  readonly sessionSettings: SessionSettings;
  readonly notifier: TerminalNotifier;
  readonly repl: ReplHost;

  constructor(configuration: RuntimeConfiguration, options: { yolo?: boolean }) {
    const { settings, features, env } = configuration;
    this.sessionSettings = new SessionSettings(settings, () => [...features], options.yolo === true);
    this.notifier = new TerminalNotifier({ env });
    this.repl = new ReplHost(() => settings.repl);
  }

  dispose(): Promise<void> {
    return this.repl.dispose();
  }
}
