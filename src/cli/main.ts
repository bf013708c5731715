#!/usr/bin/env node
// The entry point answers --version before loading anything else: start-up time is a feature.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { routeThroughEnvironmentProxy } from '../provider/proxy.js';
import { keepCompiledCode } from './compile_cache.js';
import { errorLine } from './errors.js';

/** Whatever escapes every handler still ends in one line, never a stack trace. */
function die(error: unknown): never {
  process.stderr.write(`lathe: ${errorLine(error)}\n`);
  process.exit(1);
}

process.on('uncaughtException', die);
process.on('unhandledRejection', die);
// A reader that went away (`lathe tools | head -1`) ends lathe quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  die(error);
});
process.stderr.on('error', () => process.exit(process.exitCode ?? 1));

const args = process.argv.slice(2);

/** `lathe -p …`: a run whose first request waits on the environment. */
function isHeadless(argv: string[]): boolean {
  return argv.some((a) => a === '-p' || a === '--print' || a.startsWith('--print='));
}

/** A flag's value, as `--cwd DIR` or `--cwd=DIR`. */
function flagValue(argv: string[], flag: string): string | undefined {
  const at = argv.indexOf(flag);
  if (at >= 0) return argv[at + 1];
  return argv.find((a) => a.startsWith(`${flag}=`))?.slice(flag.length + 1);
}
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v' || args[0] === '-V')) {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  process.stdout.write(`${pkg.version}\n`);
} else {
  keepCompiledCode();
  await routeThroughEnvironmentProxy();
  if (isHeadless(args)) {
    // git status for the system prompt starts now, before the rest loads (see environment_prefetch).
    const { prefetchEnvironment } = await import('../agent/environment_prefetch.js');
    prefetchEnvironment(flagValue(args, '--cwd') ?? process.cwd());
  }
  // WebAssembly (fetch's HTTP parser, tree-sitter) stays on V8's baseline compiler until it has
  // run long: optimising the parser after the first reply costs more CPU than a run saves, and
  // an exiting process waits for an optimising job still under way (about 0.1 s after `-p`).
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--wasm-tiering-budget=1000000000');
  const { runCli } = await import('./program.js');
  // This file is the command (dist/bin/lathe.js): runs that schedules and triggers start run it.
  process.exitCode = await runCli(args, { latheBin: fileURLToPath(import.meta.url) });
}
