import { join } from 'node:path';
import { SharedBrowser } from '../browser/shared_browser.js';
import { workspaceSettingsPath } from '../config/paths.js';
import { PullRequestWebhooks } from '../github/pr_webhooks.js';
import { LanguageServers } from '../lsp/language_servers.js';
import { Messaging } from '../messaging/messaging.js';
import type { Place } from '../permission/place.js';
import { Sandbox } from '../permission/sandbox/runner.js';
import type { PermissionEngine } from '../permission/types.js';
import { BackgroundServices } from '../schedule/background_services.js';
import { HeadlessTaskSpawner } from '../schedule/spawned_tasks.js';
import type { BackgroundCommand } from '../tool/context/background_commands.js';
import type { WebAccess } from '../tool/context/web.js';
import { ReadTracker } from '../tool/read_tracker.js';
import { HttpCache } from '../web/http_cache.js';
import { CheckpointService } from './checkpoint_service.js';
import type { RuntimeConfiguration } from './configuration.js';
import { SandboxGate } from './sandbox_gate.js';
import { SessionToolServices } from './session_tools.js';

/** A command or task still running, to say what ends when a client exits. */
export interface BackgroundWork {
  kind: 'command' | 'task';
  id: string;
  command: string;
  outputPath?: string;
}

export interface ServicesOptions {
  configuration: RuntimeConfiguration;
  permissions: Pick<PermissionEngine, 'mode' | 'readDenyPatterns'>;
  /** Where commands may write: the workspace, or the worktree the session entered. */
  place?: Pick<Place, 'workspace'>;
  /** A person answers approvals and --yolo is off: a command the sandbox cannot wrap asks. */
  canAsk: boolean;
  /** The lathe command that scheduled and triggered runs start. */
  latheBin?: string;
  sessionId: string;
  sessionDir: string;
  /** The run's approval flags, which the tasks it spawns inherit. */
  yolo?: boolean;
  approve?: readonly string[] | 'all';
  /** The run's `--trust`, which the tasks it spawns inherit too. */
  trust?: boolean;
  /** Hears of every file the model reads or writes (the session's conditional rules). */
  onFileSeen?: (path: string) => void;
  /** The calls are typed in the user's own shell (see `RuntimeOptions.callsFromUserShell`). */
  callsFromUserShell?: boolean;
  /** The language servers, when the runtime made them first (its pool needs to know of them). */
  languageServers?: LanguageServers;
}

/**
 * What a runtime keeps running beside its calls: the sandbox and its gate, the files read, the
 * background commands, and the tasks and schedules. All of it ends with `dispose`.
 */
export class RuntimeServices {
  /** Per-runtime memory of files read: path → content hash (read-before-edit). */
  readonly readFiles: ReadTracker;
  readonly backgroundCommands = new Map<string, BackgroundCommand>();
  readonly background: BackgroundServices;
  readonly sandbox: Sandbox;
  readonly sandboxGate: SandboxGate;
  /** send_message's router, the teams and the peers. */
  readonly messaging: Messaging;
  /** Starts spawn_task's runs. */
  readonly spawner: HeadlessTaskSpawner;
  /** web_fetch's settings and its page cache (kept under the session folder). */
  readonly web: WebAccess;
  /** The session's browser (browser_action), launched on first use. */
  readonly browser: SharedBrowser;
  /** The language servers, shared with every child runtime; none starts before a request needs it. */
  readonly languageServers: LanguageServers;
  /** Brief mode, the settings config changes, notifications and the REPL. */
  readonly sessionTools: SessionToolServices;
  /** subscribe_pr's receiver and subscriptions (feature `github_webhooks`); nothing listens before a subscription. */
  readonly pullRequests?: PullRequestWebhooks;
  /** Checkpoints of the workspace before prompts and changes (/undo, /rewind). */
  readonly checkpoints: CheckpointService;

  constructor(options: ServicesOptions) {
    const { workspace, documentsRoot, env, features, settings, trust } = options.configuration;
    const { permissions } = options;
    this.readFiles = new ReadTracker(options.onFileSeen, { callerSeesFiles: options.callsFromUserShell });
    this.background = new BackgroundServices({
      documentsRoot,
      workspace,
      env,
      features,
      latheBin: options.latheBin,
    });
    this.languageServers =
      options.languageServers ??
      new LanguageServers({ settings: settings.lsp, path: env.PATH ?? process.env.PATH });
    const { sessionId, sessionDir } = options;
    this.sessionTools = new SessionToolServices(options.configuration, { yolo: options.yolo });
    this.checkpoints = new CheckpointService({
      settings: settings.checkpoints,
      documentsRoot,
      sessionDir,
      sessionId,
      env,
      warnings: options.configuration.warnings,
    });
    this.web = { settings: settings.web, cache: new HttpCache(join(sessionDir, 'web-cache')), env };
    this.browser = new SharedBrowser(settings.browser, settings.web.allow);
    if (features.has('github_webhooks'))
      this.pullRequests = new PullRequestWebhooks({ settings: settings.github, env, sessionDir });
    this.messaging = new Messaging({ documentsRoot, workspace, sessionId, sessionDir, features });
    this.spawner = new HeadlessTaskSpawner({
      documentsRoot,
      // Runs started from here need a usable environment whatever the runtime was given.
      env: { ...process.env, ...env },
      latheBin: options.latheBin,
      yolo: options.yolo,
      approve: options.approve,
      trust: options.trust,
    });
    this.sandbox = new Sandbox(
      {
        mode: settings.sandbox.mode,
        network: settings.sandbox.network,
        workspace,
        documentsRoot,
        readDenied: () => permissions.readDenyPatterns(),
      },
      { agentMode: () => permissions.mode, place: options.place },
    );
    this.sandboxGate = new SandboxGate({
      sandbox: this.sandbox,
      modeSource: settings.sandbox.modeSource,
      workspaceSettingsPath: workspaceSettingsPath(workspace),
      workspaceTrusted: trust.trusted,
      canAsk: options.canAsk,
    });
  }

  stopBackgroundCommands(): void {
    for (const command of this.backgroundCommands.values()) if (!command.finished) command.kill();
  }

  /** Sends the commands the model is waiting for to the background; returns how many. */
  detachForegroundCommands(): number {
    let count = 0;
    for (const command of this.backgroundCommands.values()) {
      if (command.foreground && !command.finished && command.detach) {
        command.detach();
        count++;
      }
    }
    return count;
  }

  runningBackgroundWork(): BackgroundWork[] {
    const commands = [...this.backgroundCommands.values()]
      .filter((c) => !c.finished)
      .map((c) => ({ kind: 'command' as const, id: c.id, command: c.command, outputPath: c.outputPath }));
    const tasks = [...this.background.tasks.values()]
      .filter((t) => t.status === 'running' && t.command !== undefined)
      .map((t) => ({ kind: 'task' as const, id: t.id, command: t.command!, outputPath: t.outputPath }));
    return [...commands, ...tasks];
  }

  async dispose(): Promise<void> {
    this.stopBackgroundCommands();
    await Promise.all([
      ...[...this.backgroundCommands.values()].map((c) => c.done),
      this.background.dispose(),
      this.messaging.dispose(),
      this.browser.close(),
      this.languageServers.dispose(),
      this.sessionTools.dispose(),
      this.pullRequests?.dispose(),
      this.checkpoints.close(),
    ]);
    this.sandbox.dispose();
  }
}
