#!/usr/bin/env node
// The entry point answers --version before loading anything else: start-up time is a feature.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v' || args[0] === '-V')) {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  process.stdout.write(`${pkg.version}\n`);
} else {
  const { runCli } = await import('./program.js');
  process.exitCode = await runCli(args);
}
