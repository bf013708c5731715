import { type RegisterCommands, TRUST_HELP } from './registration.js';

/** What a session here is made of, listed: language servers, agent types, rule files, skills. */
export const registerListings: RegisterCommands = (program, context) => {
  program
    .command('lsp')
    .description('language servers: lathe lsp status')
    .command('status', { isDefault: true })
    .description('each language server: found or not, command, version, state')
    .option('--cwd <dir>', 'the folder whose settings are read')
    .option('--trust', TRUST_HELP)
    .option('--json', 'print JSON')
    .action(async (opts) => {
      const { lspStatusCommand } = await import('../commands/lsp.js');
      context.exitWith(await lspStatusCommand(opts));
    });

  const agents = program.command('agents').description('the agent types a child agent can be');
  agents
    .command('list', { isDefault: true })
    .description('each agent type: its description, tools, model and where it comes from')
    .option('--cwd <dir>', 'the folder whose agent files are read')
    .option('--trust', TRUST_HELP)
    .option('--json', 'print JSON')
    .action(async (opts) => {
      const { agentsCommand } = await import('../commands/agents.js');
      context.exitWith(agentsCommand(opts));
    });

  const rules = program.command('rules').description('the rule files that join the system prompt');
  rules
    .command('list', { isDefault: true })
    .description('each rule file, in prompt order: in the prompt or not, and why')
    .option('--cwd <dir>', 'the folder whose rule files are read')
    .option('--json', 'print JSON')
    .action(async (opts) => {
      const { rulesCommand } = await import('../commands/rules.js');
      context.exitWith(rulesCommand(opts));
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
      const { skillsCommand } = await import('../commands/skills.js');
      context.exitWith(skillsCommand(opts));
    });
};
