// The sandbox's start-up probe (bubblewrap runs `cat /proc/self/status` to check that no
// capabilities are left), and the cost of expanding read-deny masks over this repository.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filesToMask } from '../src/permission/sandbox/masking.js';
import { probeBubblewrap } from '../src/permission/sandbox/probe.js';
import { median, timeRuns } from './stats.js';

const RUNS = 20;

function bareBwrapTrue(): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', 'true']);
    child.on('close', () => resolve());
    child.on('error', () => resolve());
  });
}

export async function benchSandbox(): Promise<Array<Record<string, string | number>>> {
  const workspace = mkdtempSync(join(tmpdir(), 'lathe-bench-sandbox-'));
  const documentsRoot = mkdtempSync(join(tmpdir(), 'lathe-bench-sandbox-home-'));
  const policy = { mode: 'workspace-write' as const, network: false, workspace, documentsRoot };
  const status = (await probeBubblewrap(policy)).status;
  const bare = median(await timeRuns(RUNS, bareBwrapTrue));
  const probe = median(await timeRuns(RUNS, () => probeBubblewrap(policy)));
  const repo = fileURLToPath(new URL('..', import.meta.url));
  const none = median(await timeRuns(RUNS, () => filesToMask([], repo)));
  const masks = median(await timeRuns(5, () => filesToMask(['**/.env'], repo)));
  rmSync(workspace, { recursive: true, force: true });
  rmSync(documentsRoot, { recursive: true, force: true });
  return [
    { case: 'bwrap … true (no checks)', 'median ms': bare, runs: RUNS },
    {
      case: `sandbox probe at start${status.active ? '' : ` (NOT ACTIVE: ${status.reason})`}`,
      'median ms': probe,
      runs: RUNS,
    },
    { case: 'read-deny masks, no rules', 'median ms': none, runs: RUNS },
    { case: 'read-deny masks, **/.env over this repository (node_modules too)', 'median ms': masks, runs: 5 },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printTable } = await import('./stats.js');
  printTable(`sandbox probe and masks, medians`, await benchSandbox());
}
