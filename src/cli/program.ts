import { readFileSync } from 'node:fs';
import { Argument, Command, CommanderError, Option } from 'commander';
import { EFFORTS, PROFILES } from '../config/types.js';
import { checkArguments, positiveDollars, positiveWholeNumber } from './check_arguments.js';
import { checkCommandTypo } from './command_guess.js';
import type { McpSubcommand } from './commands/mcp.js';
import { errorLine, UsageError } from './errors.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];
const TRUST_HELP = 'trust this folder for this run: its MCP servers and settings apply (see lathe trust)';

function readStdin(): string {
  try {
    return readFileSync(0, 'utf8');
  } catch {
    return '';
  }
}

/**
 * The prompt of `lathe -p`: the flag's value or the positional one, with what was piped in after
 * it (`cat build.log | lathe -p "why does this fail?"`); a terminal on stdin is not read.
 */
function headlessPrompt(flag: string | true, positional: string | undefined): string {
  if (typeof flag === 'string' && flag !== '-' && positional !== undefined)
    throw new UsageError(
      `two prompts given ("${flag}" and "${positional}"): quote the prompt as one argument`,
    );
  const typed = typeof flag === 'string' && flag !== '-' ? flag : positional;
  const piped = process.stdin.isTTY ? '' : readStdin();
  if (typed === undefined) return piped;
  if (!piped.trim()) return typed;
  return `${typed}\n\n<stdin>\n${piped.replace(/\s+$/, '')}\n</stdin>`;
}

/** Options shared by every command that builds a runtime. */
function runtimeOptions(command: Command): Command {
  return command
    .option('--cwd <dir>', 'working folder (default: the current folder)')
    .addOption(new Option('--profile <profile>', 'prompt configuration').choices([...PROFILES]))
    .addOption(new Option('--mode <mode>', 'Plan or Act mode').choices(['plan', 'act']))
    .option('--strict-plan', 'Strict Plan Mode: in Plan mode the file-writing tools are refused, not asked')
    .option('--feature <name>', 'turn a feature on (repeatable)', collect, [])
    .addOption(
      new Option('--sandbox <mode>', 'where commands may write (default workspace-write)').choices([
        'read-only',
        'workspace-write',
        'off',
      ]),
    )
    .addHelpText('after', '\n  --no-feature <name>  turn a feature off (repeatable)')
    .option('--json', 'print JSON')
    .option('--trust', TRUST_HELP)
    .option(
      '--add-dir <dir>',
      'another folder the tools may read and edit, as the workspace (repeatable)',
      collect,
      [],
    )
    .option(
      '--allowed-tools <rules...>',
      'allow rules for this run, as in settings: read_file "execute_command(npm test)"',
    )
    .option(
      '--disallowed-tools <rules...>',
      'deny rules for this run, as in settings: "execute_command(git push)"',
    );
}

/** Parses `--no-feature a --no-feature b` by hand: commander's negation does not collect values. */
function disabledFeatures(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--no-feature' && args[i + 1]) out.push(args[++i]);
    else if (args[i].startsWith('--no-feature=')) out.push(args[i].slice('--no-feature='.length));
  }
  return out;
}

function stripNoFeature(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--no-feature') i++;
    else if (!args[i].startsWith('--no-feature=')) out.push(args[i]);
  }
  return out;
}

/** Options of the program typed before a command would be ignored by it: say where they go. */
function checkPlacement(program: Command, command: Command): void {
  for (const key of Object.keys(program.opts())) {
    if (program.getOptionValueSource(key) !== 'cli') continue;
    const flag = program.options.find((o) => o.attributeName() === key)?.long ?? key;
    throw new UsageError(`${flag} goes after the command: lathe ${command.name()} ${flag} …`);
  }
}

/** Thrown by a parse-only run once the command line is known to parse. */
class ParsedOnly extends Error {}

/**
 * Runs lathe's command line. `latheBin`: the lathe command's own script, which scheduled and
 * triggered runs start. `parseOnly` stops once commander has parsed the line (before arguments
 * are checked against the disk and before anything starts): documentation tests use it to prove
 * each documented command is one lathe understands.
 */
export async function runCli(
  argv: string[],
  options: { latheBin?: string; parseOnly?: boolean } = {},
): Promise<number> {
  const disabled = disabledFeatures(argv);
  let exitCode = 0;
  const program = new Command('lathe')
    .description('An open, provider-agnostic coding agent for the terminal')
    .exitOverride()
    .enablePositionalOptions()
    .configureOutput({
      writeErr: (text) => process.stderr.write(text),
      // Commander's own errors read as lathe's: one line, "lathe: …".
      outputError: (text, write) => write(text.replace(/^error: /, 'lathe: ')),
    })
    // `lathe help` as well as `lathe --help`, though the program also takes a prompt.
    .helpCommand(true)
    // Every command's arguments are checked before it starts anything.
    .hook('preAction', (program, command) => {
      if (command !== program) checkPlacement(program, command);
      if (options.parseOnly) throw new ParsedOnly();
      return checkArguments(command.opts());
    });

  program
    .command('doctor')
    .description('check what lathe needs here: tools, sandbox, keys, endpoints, MCP servers, settings')
    .option('--cwd <dir>', 'the folder whose settings and servers are checked')
    .option('-m, --model <provider/model>', 'the model to check (default: settings, or LATHE_MODEL)')
    .option('--json', 'print JSON')
    .action(async (opts) => {
      const { doctorCommand } = await import('./commands/doctor.js');
      exitCode = await doctorCommand(opts);
    });

  runtimeOptions(
    program.command('tools').description('list the tool pool under the current settings'),
  ).action(async (opts) => {
    const { toolsCommand } = await import('./commands/tools.js');
    exitCode = await toolsCommand({ ...opts, noFeature: disabled, latheBin: options.latheBin });
  });

  runtimeOptions(program.command('tool <name>').description('run one tool directly and print its result'))
    .option('--input <json>', 'the tool input as JSON ("-" reads standard input)', '{}')
    .option(
      '--approve <category>',
      'answer asks of this approval category with yes (repeatable; "all")',
      collect,
      [],
    )
    .option('--yolo', 'answer every approval with yes (deny rules and protected paths still hold)')
    .action(async (name: string, opts) => {
      const { toolCommand } = await import('./commands/tool.js');
      exitCode = await toolCommand(name, { ...opts, noFeature: disabled, latheBin: options.latheBin });
    });

  const sessions = program
    .command('sessions')
    .description('list, show or export the sessions of this folder');
  const sessionsAction =
    (sub: 'list' | 'show' | 'export') => async (id: string | undefined, opts: Record<string, unknown>) => {
      const { sessionsCommand } = await import('./commands/sessions.js');
      exitCode = await sessionsCommand(sub, id, opts);
    };
  sessions
    .command('list', { isDefault: true })
    .option('--cwd <dir>')
    .option('--json')
    .action((opts) => sessionsAction('list')(undefined, opts));
  sessions
    .command('show <id>')
    .option('--cwd <dir>')
    .action((id, opts) => sessionsAction('show')(id, opts));
  sessions
    .command('export <id>')
    .option('--cwd <dir>')
    .addOption(new Option('--format <format>', 'export format').choices(['md', 'jsonl']).default('md'))
    .action((id, opts) => sessionsAction('export')(id, opts));

  const worktrees = program
    .command('worktrees')
    .description("list lathe's git worktrees, or prune those whose process is gone");
  const worktreesAction = (sub: 'list' | 'prune') => async (opts: { json?: boolean }) => {
    const { worktreesCommand } = await import('./commands/worktrees.js');
    exitCode = await worktreesCommand(sub, opts);
  };
  worktrees
    .command('list', { isDefault: true })
    .description('name, branch, folder, owner, alive / stale / kept, changes')
    .option('--json', 'print JSON')
    .action(worktreesAction('list'));
  worktrees
    .command('prune')
    .description('commit the changes of worktrees whose process is gone on their branches, and remove them')
    .option('--json', 'print JSON')
    .action(worktreesAction('prune'));

  const checkpoints = program
    .command('checkpoints')
    .description('the snapshots taken before prompts and changes: list, restore one, disk used, prune');
  const checkpointsAction =
    (sub: 'list' | 'restore' | 'du' | 'prune') =>
    async (id: string | undefined, opts: { cwd?: string; json?: boolean; all?: boolean }) => {
      const { checkpointsCommand } = await import('./commands/checkpoints.js');
      exitCode = await checkpointsCommand(sub, id, opts);
    };
  checkpoints
    .command('list', { isDefault: true })
    .description('the checkpoints of this workspace, newest first')
    .option('--cwd <dir>', 'the workspace (default: the current folder)')
    .option('--json', 'print JSON')
    .action((opts) => checkpointsAction('list')(undefined, opts));
  checkpoints
    .command('restore <id>')
    .description('make the files as they were at a checkpoint (itself checkpointed first)')
    .option('--cwd <dir>', 'the workspace (default: the current folder)')
    .action((id, opts) => checkpointsAction('restore')(id, opts));
  checkpoints
    .command('du')
    .description('disk used by the checkpoints of this workspace and of all')
    .option('--cwd <dir>', 'the workspace (default: the current folder)')
    .option('--json', 'print JSON')
    .action((opts) => checkpointsAction('du')(undefined, opts));
  checkpoints
    .command('prune')
    .description('remove checkpoints past checkpoints.keep and checkpoints.maxAgeDays, then git gc')
    .option('--cwd <dir>', 'the workspace (default: the current folder)')
    .option('--all', 'remove every checkpoint of the workspace')
    .action((opts) => checkpointsAction('prune')(undefined, opts));

  const mcp = program
    .command('mcp')
    .description('MCP: serve lathe’s tools, or list, add, remove, test and log in to servers');
  const mcpAction =
    (sub: McpSubcommand) =>
    async (name: string | undefined, command: string[] | undefined, opts: Record<string, unknown>) => {
      const { mcpCommand } = await import('./commands/mcp.js');
      exitCode = await mcpCommand(
        sub,
        { name, command },
        { ...opts, noFeature: disabled, latheBin: options.latheBin },
      );
    };
  runtimeOptions(
    mcp.command('serve').description('serve lathe’s tool pool over MCP (stdio, or HTTP with --http)'),
  )
    .option('--http <port>', 'serve streamable HTTP on 127.0.0.1:PORT with a bearer token (0: any free port)')
    .option(
      '--approve <category>',
      'answer asks of this approval category with yes (repeatable; "all")',
      collect,
      [],
    )
    .option('--yolo', 'answer every approval with yes (deny rules and protected paths still hold)')
    .action((opts) => mcpAction('serve')(undefined, undefined, opts));
  mcp
    .command('list')
    .description('configured servers, their status and tool counts')
    .option('--cwd <dir>')
    .option('--trust', TRUST_HELP)
    .option('--json')
    .action((opts) => mcpAction('list')(undefined, undefined, opts));
  mcp
    .command('add <name> [command...]')
    .description('add a server: lathe mcp add NAME -- COMMAND ARGS…, or --url URL')
    .option('--url <url>', 'an HTTP server instead of a command')
    .addOption(new Option('--type <type>', 'HTTP transport').choices(['streamableHttp', 'http', 'sse']))
    .option('--header <header>', 'an HTTP header, "Name: value" (repeatable)', collect, [])
    .option('--env <pair>', 'an environment variable for the command, KEY=VALUE (repeatable)', collect, [])
    .option('--timeout <seconds>', 'request timeout in seconds (default 60)')
    .option('--auto-approve <tool>', 'a tool that runs without asking (repeatable)', collect, [])
    .option('--workspace', 'write .agents/mcp/NAME.json in this workspace instead of the global file')
    .option('--cwd <dir>')
    .action((name, command, opts) => mcpAction('add')(name, command, opts));
  mcp
    .command('remove <name>')
    .description('remove a server from every settings file that names it')
    .option('--cwd <dir>')
    .action((name, opts) => mcpAction('remove')(name, undefined, opts));
  mcp
    .command('test <name>')
    .description('connect to a server, list its tools and time a round trip')
    .option('--cwd <dir>')
    .option('--trust', TRUST_HELP)
    .option('--json')
    .action((name, opts) => mcpAction('test')(name, undefined, opts));
  mcp
    .command('login <name>')
    .description('log in to an HTTP server with OAuth (opens the browser; --no-browser prints the link)')
    .option('--no-browser', 'print the link and read the pasted redirect address from stdin')
    .option('--timeout <seconds>', 'how long the whole login may take (default 300)')
    .option('--cwd <dir>')
    .option('--trust', TRUST_HELP)
    .action((name, opts) => mcpAction('login')(name, undefined, opts));
  mcp
    .command('logout <name>')
    .description('forget the stored OAuth login of a server')
    .option('--cwd <dir>')
    .option('--trust', TRUST_HELP)
    .action((name, opts) => mcpAction('logout')(name, undefined, opts));
  mcp
    .command('import')
    .description('copy the MCP servers of another program’s settings into lathe’s, saying what it took')
    .addOption(
      new Option('--from <program>', 'whose settings').choices([
        'claude',
        'codex',
        'gemini',
        'cursor',
        'vscode',
      ]),
    )
    .addOption(
      new Option('--scope <scope>', 'where to write (default global)').choices(['global', 'workspace']),
    )
    .option('--force', 'replace a server lathe already has of the same name')
    .option('--cwd <dir>')
    .option('--trust', TRUST_HELP)
    .action((opts) => mcpAction('import')(undefined, undefined, opts));

  program
    .command('lsp')
    .description('language servers: lathe lsp status')
    .command('status', { isDefault: true })
    .description('each language server: found or not, command, version, state')
    .option('--cwd <dir>', 'the folder whose settings are read')
    .option('--trust', TRUST_HELP)
    .option('--json', 'print JSON')
    .action(async (opts) => {
      const { lspStatusCommand } = await import('./commands/lsp.js');
      exitCode = await lspStatusCommand(opts);
    });

  const agents = program.command('agents').description('the agent types a child agent can be');
  agents
    .command('list', { isDefault: true })
    .description('each agent type: its description, tools, model and where it comes from')
    .option('--cwd <dir>', 'the folder whose agent files are read')
    .option('--trust', TRUST_HELP)
    .option('--json', 'print JSON')
    .action(async (opts) => {
      const { agentsCommand } = await import('./commands/agents.js');
      exitCode = agentsCommand(opts);
    });

  const rules = program.command('rules').description('the rule files that join the system prompt');
  rules
    .command('list', { isDefault: true })
    .description('each rule file, in prompt order: in the prompt or not, and why')
    .option('--cwd <dir>', 'the folder whose rule files are read')
    .option('--json', 'print JSON')
    .action(async (opts) => {
      const { rulesCommand } = await import('./commands/rules.js');
      exitCode = rulesCommand(opts);
    });

  const skills = program
    .command('skills')
    .description('the skills (Agent Skills folders) the model and /<name> can use');
  skills
    .command('list', { isDefault: true })
    .description('each skill: its description, who may use it, its allowed-tools and its warnings')
    .option('--cwd <dir>', 'the folder whose skills are read')
    .option('--trust', TRUST_HELP)
    .option('--json', 'print JSON')
    .action(async (opts) => {
      const { skillsCommand } = await import('./commands/skills.js');
      exitCode = skillsCommand(opts);
    });

  const jobs = program
    .command('jobs')
    .description(
      'many headless runs, each in its own worktree and sandbox, on a local queue or BullMQ + Redis',
    );
  const QUEUE_HELP = 'the queue: local (default) or redis://HOST:PORT/DB (settings jobs.queue)';
  jobs
    .command('submit [file]')
    .description('queue the jobs of a job file (JSONL or a YAML list), or one job given by flags')
    .option('--queue <queue>', QUEUE_HELP)
    .option('--repo <repo>', 'a local repository or a git URL')
    .option('--prompt <prompt>', 'what the job asks')
    .option('--ref <ref>', 'the branch, tag or commit to start from (default HEAD)')
    .option('--id <id>', 'the job id (default: a hash of the job); the same id runs once')
    .option('-m, --model <provider/model>', 'the model')
    .addOption(new Option('--profile <profile>', 'prompt configuration').choices([...PROFILES]))
    .addOption(new Option('--output <kind>', 'what the work becomes').choices(['branch', 'patch']))
    .option('--push', 'push the branch to the remote repository')
    .option('--priority <n>', 'BullMQ priority: 1 is the highest')
    .option('--max-turns <n>', 'budget: model requests')
    .option('--max-tokens <n>', 'budget: input + output tokens')
    .option('--max-seconds <n>', 'budget: wall time of the run')
    .option('--max-cost <dollars>', 'budget: dollars at the model’s known prices')
    .option('--rerun', 'run the jobs again although they completed or their branch exists')
    .option('--setup <command>', 'a command run once in the fresh worktree (repeatable)', collect, [])
    .option('--include <glob>', 'untracked files of the local repository copied in (repeatable)', collect, [])
    .option('--batch <name>', 'the batch the jobs belong to (default: the job file’s name)')
    .option('--json', 'print JSON')
    .action(async (file: string | undefined, opts) => {
      const { jobsSubmitCommand } = await import('./commands/jobs.js');
      exitCode = await jobsSubmitCommand(file, opts);
    });
  const workerFlags = (command: Command) =>
    command
      .option('--queue <queue>', QUEUE_HELP)
      .option('--concurrency <n>', 'jobs at once (default: settings jobs.concurrency, or 2)')
      .addOption(
        new Option(
          '--sandbox <mode>',
          'off runs jobs without bubblewrap (refused otherwise where it does not work)',
        ).choices(['workspace-write', 'off']),
      );
  workerFlags(
    jobs.command('run').description('run the queued jobs on this machine until none is left'),
  ).action(async (opts) => {
    const { workerCommand } = await import('./commands/jobs.js');
    exitCode = await workerCommand({ ...opts, latheBin: options.latheBin, untilEmpty: true });
  });
  jobs
    .command('list', { isDefault: true })
    .description('each job: status, step, where its output is')
    .option('--queue <queue>', QUEUE_HELP)
    .option('--batch <name>', 'only the jobs of this batch')
    .option('--json', 'print JSON')
    .action(async (opts) => {
      const { jobsListCommand } = await import('./commands/jobs.js');
      exitCode = await jobsListCommand(opts);
    });
  jobs
    .command('show <id>')
    .description('one job: status, usage and cost, output, files')
    .option('--queue <queue>', QUEUE_HELP)
    .option('--json', 'print JSON')
    .action(async (id: string, opts) => {
      const { jobsShowCommand } = await import('./commands/jobs.js');
      exitCode = await jobsShowCommand(id, opts);
    });
  jobs
    .command('logs <id>')
    .description('the log lines of one job')
    .option('--queue <queue>', QUEUE_HELP)
    .action(async (id: string, opts) => {
      const { jobsLogsCommand } = await import('./commands/jobs.js');
      exitCode = await jobsLogsCommand(id, opts);
    });
  jobs
    .command('results')
    .description('a summary table of the jobs of a batch: Markdown, or JSONL with --json')
    .option('--queue <queue>', QUEUE_HELP)
    .option('--batch <name>', 'only the jobs of this batch')
    .option('--out <dir>', 'write results.jsonl and results.md there')
    .option('--json', 'print JSON Lines')
    .action(async (opts) => {
      const { jobsResultsCommand } = await import('./commands/jobs.js');
      exitCode = await jobsResultsCommand(opts);
    });
  jobs
    .command('cancel <id>')
    .description('cancel a job: a waiting one never runs, a running one is stopped')
    .option('--queue <queue>', QUEUE_HELP)
    .action(async (id: string, opts) => {
      const { jobsCancelCommand } = await import('./commands/jobs.js');
      exitCode = await jobsCancelCommand(id, opts);
    });
  workerFlags(
    program
      .command('worker')
      .description('take jobs from the queue (BullMQ + Redis on any number of machines) and run them'),
  ).action(async (opts) => {
    const { workerCommand } = await import('./commands/jobs.js');
    exitCode = await workerCommand({ ...opts, latheBin: options.latheBin });
  });

  program
    .command('acp')
    .description('the Agent Client Protocol over stdio, for editors (Zed, JetBrains, Neovim, Emacs)')
    .option('-m, --model <provider/model>', 'the model sessions start with (default: settings)')
    .option('--base-url <url>', 'the provider endpoint (OpenAI-compatible servers, proxies)')
    .option('--api-key <key>', 'the API key (default: the provider’s usual environment variable)')
    .addOption(new Option('--profile <profile>', 'prompt configuration').choices([...PROFILES]))
    .option('--feature <name>', 'turn a feature on (repeatable)', collect, [])
    .option('--trust', TRUST_HELP)
    .action(async (opts) => {
      const { acpCommand } = await import('./commands/acp.js');
      exitCode = await acpCommand({ ...opts, noFeature: disabled, latheBin: options.latheBin });
    });

  program
    .command('trust [folder]')
    .description(
      'trust a folder (default: this one) and the folders below it: its MCP servers and settings apply',
    )
    .option('--list', 'list the trusted folders')
    .option('--remove', 'stop trusting the folder')
    .action(async (folder: string | undefined, opts) => {
      const { trustCommand } = await import('./commands/trust.js');
      exitCode = trustCommand(folder, opts);
    });

  program
    .command('completion')
    .description('print the completion script of a shell: source <(lathe completion bash)')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish']))
    .action(async (shell: 'bash' | 'zsh' | 'fish') => {
      const { completionCommand } = await import('./completion/script.js');
      exitCode = completionCommand(shell, program);
    });

  runtimeOptions(program)
    .argument('[prompt]', 'a first prompt: the UI opens with it sent (with -p: run it headless)')
    .option(
      '-p, --print [prompt]',
      'run one prompt headless and print the result (piped standard input follows the prompt)',
    )
    .option(
      '-m, --model <provider/model>',
      'the model, e.g. anthropic/claude-sonnet-4-5, ollama/qwen2.5-coder',
    )
    .option('--base-url <url>', 'the provider endpoint (OpenAI-compatible servers, proxies)')
    .option('--api-key <key>', 'the API key (default: the provider’s usual environment variable)')
    .option('--list-models', 'list the known models by provider, ✗ where a key or endpoint is missing')
    .addOption(
      new Option('--output-format <format>', 'headless output')
        .choices(['text', 'json', 'stream-json'])
        .default('text'),
    )
    .option(
      '--max-turns <n>',
      'stop after this many model requests (default: no limit; a model repeating one call is stopped)',
      positiveWholeNumber('--max-turns'),
    )
    .option(
      '--max-tokens <n>',
      'stop before the input + output tokens reach this (children included)',
      positiveWholeNumber('--max-tokens'),
    )
    .option(
      '--max-cost <dollars>',
      'stop before the cost at the model’s known prices reaches this (children included)',
      positiveDollars('--max-cost'),
    )
    .option(
      '--approve <category>',
      'answer asks of this approval category with yes (repeatable; "all")',
      collect,
      [],
    )
    .option('--yolo', 'answer every approval with yes (deny rules and protected paths still hold)')
    .option('--json-schema <file>', 'the final answer must be JSON matching this schema (structured_output)')
    .option('--answers <file>', 'a JSON array of answers to questions and approvals, in order')
    .option('--resume <id>', 'resume a session (an id or unique prefix)')
    .option('-c, --continue', 'continue the latest session of this folder')
    .option('--fork <id>', 'start a new session from the history of this one (an id or unique prefix)')
    .option('--no-session', 'write no session: it cannot be resumed')
    .option('--verbose', 'print tool calls to stderr')
    .option(
      '--system-prompt <text>',
      'instructions that replace lathe’s own (environment and AGENTS.md still follow)',
    )
    .option('--append-system-prompt <text>', 'instructions added at the end of the system prompt')
    .addOption(
      new Option('--effort <level>', 'how hard the model thinks (its reasoning setting)').choices([
        ...EFFORTS,
      ]),
    )
    // spawn_task's runs: agent kind `task` (no spawn_task inside), in the session the starter named.
    .addOption(new Option('--spawned-task <session-id>').hideHelp())
    .option(
      '-i, --image <file>',
      'an image sent with the -p prompt (repeatable; models that take images)',
      collect,
      [],
    )
    .action(async (positional: string | undefined, opts) => {
      if (opts.listModels) {
        exitCode = (await import('./list_models.js')).listModelsCommand(opts);
        return;
      }
      if (opts.print === undefined) {
        if (opts.image.length > 0)
          throw new UsageError('-i/--image goes with -p; in the UI, name the image with @file.png');
        const { runInteractive } = await import('./interactive.js');
        exitCode = await runInteractive({
          ...opts,
          noFeature: disabled,
          latheBin: options.latheBin,
          prompt: positional,
        });
        return;
      }
      const prompt = headlessPrompt(opts.print, positional);
      if (!prompt.trim()) {
        process.stderr.write('lathe: -p needs a prompt (as its value or on standard input)\n');
        exitCode = 2;
        return;
      }
      const { runHeadless } = await import('./headless/run.js');
      exitCode = await runHeadless({ ...opts, noFeature: disabled, latheBin: options.latheBin, prompt });
    });

  try {
    checkCommandTypo(program, argv);
    await program.parseAsync(stripNoFeature(argv), { from: 'user' });
  } catch (error) {
    if (error instanceof ParsedOnly) return 0;
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    process.stderr.write(`lathe: ${errorLine(error)}\n`);
    // A settings file lathe cannot use (config/settings_file.ts) is the user's to fix: exit 2.
    return error instanceof UsageError || (error as Error).name === 'SettingsError' ? 2 : 1;
  }
  return exitCode;
}
