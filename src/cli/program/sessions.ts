import { Option } from 'commander';
import type { RegisterCommands } from './registration.js';

/** `lathe sessions`: list, show or export the sessions of a folder. */
export const registerSessions: RegisterCommands = (program, context) => {
  const sessions = program
    .command('sessions')
    .description('list, show or export the sessions of this folder');
  const sessionsAction =
    (sub: 'list' | 'show' | 'export') => async (id: string | undefined, opts: Record<string, unknown>) => {
      const { sessionsCommand } = await import('../commands/sessions.js');
      context.exitWith(await sessionsCommand(sub, id, opts));
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
};
