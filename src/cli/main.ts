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
  // WebAssembly (fetch's HTTP parser, tree-sitter) stays on V8's baseline compiler until it has
  // run long: optimising the parser after the first reply costs more CPU than a run saves, and
  // an exiting process waits for an optimising job still under way (about 0.1 s after `-p`).
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--wasm-tiering-budget=1000000000');
  const { runCli } = await import('./program.js');
  process.exitCode = await runCli(args);
}
