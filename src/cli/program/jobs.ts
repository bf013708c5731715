import { type Command, Option } from 'commander';
import { type CommandContext, collect, profileOption, type RegisterCommands } from './registration.js';

const QUEUE_HELP = 'the queue: local (default) or redis://HOST:PORT/DB (settings jobs.queue)';

/** The flags of a worker: `lathe jobs run` and `lathe worker`. */
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

/** `lathe jobs`: many headless runs on a queue; `lathe worker` takes them from it. */
export const registerJobs: RegisterCommands = (program, context) => {
  const jobs = program
    .command('jobs')
    .description(
      'many headless runs, each in its own worktree and sandbox, on a local queue or BullMQ + Redis',
    );
  registerSubmit(jobs, context);
  workerFlags(
    jobs.command('run').description('run the queued jobs on this machine until none is left'),
  ).action(async (opts) => {
    const { workerCommand } = await import('../commands/jobs.js');
    context.exitWith(await workerCommand({ ...opts, latheBin: context.latheBin, untilEmpty: true }));
  });
  registerQueueViews(jobs, context);
  workerFlags(
    program
      .command('worker')
      .description('take jobs from the queue (BullMQ + Redis on any number of machines) and run them'),
  ).action(async (opts) => {
    const { workerCommand } = await import('../commands/jobs.js');
    context.exitWith(await workerCommand({ ...opts, latheBin: context.latheBin }));
  });
};

function registerSubmit(jobs: Command, context: CommandContext): void {
  jobs
    .command('submit [file]')
    .description('queue the jobs of a job file (JSONL or a YAML list), or one job given by flags')
    .option('--queue <queue>', QUEUE_HELP)
    .option('--repo <repo>', 'a local repository or a git URL')
    .option('--prompt <prompt>', 'what the job asks')
    .option('--ref <ref>', 'the branch, tag or commit to start from (default HEAD)')
    .option('--id <id>', 'the job id (default: a hash of the job); the same id runs once')
    .option('-m, --model <provider/model>', 'the model')
    .addOption(profileOption())
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
      const { jobsSubmitCommand } = await import('../commands/jobs.js');
      context.exitWith(await jobsSubmitCommand(file, opts));
    });
}

/** The queue's jobs: listed, one shown, its log, a batch's results, one cancelled. */
function registerQueueViews(jobs: Command, context: CommandContext): void {
  jobs
    .command('list', { isDefault: true })
    .description('each job: status, step, where its output is')
    .option('--queue <queue>', QUEUE_HELP)
    .option('--batch <name>', 'only the jobs of this batch')
    .option('--json', 'print JSON')
    .action(async (opts) => {
      const { jobsListCommand } = await import('../commands/jobs.js');
      context.exitWith(await jobsListCommand(opts));
    });
  jobs
    .command('show <id>')
    .description('one job: status, usage and cost, output, files')
    .option('--queue <queue>', QUEUE_HELP)
    .option('--json', 'print JSON')
    .action(async (id: string, opts) => {
      const { jobsShowCommand } = await import('../commands/jobs.js');
      context.exitWith(await jobsShowCommand(id, opts));
    });
  jobs
    .command('logs <id>')
    .description('the log lines of one job')
    .option('--queue <queue>', QUEUE_HELP)
    .action(async (id: string, opts) => {
      const { jobsLogsCommand } = await import('../commands/jobs.js');
      context.exitWith(await jobsLogsCommand(id, opts));
    });
  jobs
    .command('results')
    .description('a summary table of the jobs of a batch: Markdown, or JSONL with --json')
    .option('--queue <queue>', QUEUE_HELP)
    .option('--batch <name>', 'only the jobs of this batch')
    .option('--out <dir>', 'write results.jsonl and results.md there')
    .option('--json', 'print JSON Lines')
    .action(async (opts) => {
      const { jobsResultsCommand } = await import('../commands/jobs.js');
      context.exitWith(await jobsResultsCommand(opts));
    });
  jobs
    .command('cancel <id>')
    .description('cancel a job: a waiting one never runs, a running one is stopped')
    .option('--queue <queue>', QUEUE_HELP)
    .action(async (id: string, opts) => {
      const { jobsCancelCommand } = await import('../commands/jobs.js');
      context.exitWith(await jobsCancelCommand(id, opts));
    });
}
