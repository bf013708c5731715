import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built command; `npm test` builds before testing. */
export const LATHE_BIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export function lathe(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
) {
  const result = spawnSync(process.execPath, [LATHE_BIN, ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    input: options.input ?? '',
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
