import { type Command, Option } from 'commander';
import type { McpSubcommand } from '../commands/mcp.js';
import {
  approvalOptions,
  collect,
  type RegisterCommands,
  runtimeOptions,
  TRUST_HELP,
} from './registration.js';

/** Runs one `lathe mcp` subcommand with the server name and command it was given. */
type McpAction = (
  sub: McpSubcommand,
) => (
  name: string | undefined,
  command: string[] | undefined,
  opts: Record<string, unknown>,
) => Promise<void>;

/** `lathe mcp`: serve lathe's tools, or manage the MCP servers lathe connects to. */
export const registerMcp: RegisterCommands = (program, context) => {
  const mcp = program
    .command('mcp')
    .description('MCP: serve lathe’s tools, or list, add, remove, test and log in to servers');
  const mcpAction: McpAction = (sub) => async (name, command, opts) => {
    const { mcpCommand } = await import('../commands/mcp.js');
    context.exitWith(
      await mcpCommand(
        sub,
        { name, command },
        { ...opts, noFeature: context.noFeature, latheBin: context.latheBin },
      ),
    );
  };
  registerServe(mcp, mcpAction);
  registerServers(mcp, mcpAction);
  registerLogins(mcp, mcpAction);
  registerImport(mcp, mcpAction);
};

function registerServe(mcp: Command, mcpAction: McpAction): void {
  approvalOptions(
    runtimeOptions(
      mcp.command('serve').description('serve lathe’s tool pool over MCP (stdio, or HTTP with --http)'),
    ).option(
      '--http <port>',
      'serve streamable HTTP on 127.0.0.1:PORT with a bearer token (0: any free port)',
    ),
  ).action((opts) => mcpAction('serve')(undefined, undefined, opts));
}

/** The configured servers: listed, added, removed, tested. */
function registerServers(mcp: Command, mcpAction: McpAction): void {
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
}

/** OAuth logins to HTTP servers. */
function registerLogins(mcp: Command, mcpAction: McpAction): void {
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
}

function registerImport(mcp: Command, mcpAction: McpAction): void {
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
}
