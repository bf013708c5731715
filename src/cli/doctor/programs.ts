import { CHROMIUM_NAMES } from '../../browser/launch.js';
import { DEFAULT_LSP_SETTINGS, type LspSettings } from '../../config/lsp_settings.js';
import { LanguageServers } from '../../lsp/language_servers.js';
import { ripgrepPath } from '../../tools/search/ripgrep.js';
import { type CheckResult, failed, findOnPath, passed, versionOf } from './check.js';

/** The programs lathe runs or offers tools for: found on PATH, and their versions. */

const MIN_NODE_MAJOR = 20;

export async function checkNode(): Promise<CheckResult> {
  const version = process.versions.node;
  if (Number(version.split('.')[0]) >= MIN_NODE_MAJOR) return passed('node', `Node ${version}`, true);
  return failed('node', `Node ${version} is too old`, `install Node ${MIN_NODE_MAJOR} or later`, true);
}

export async function checkRipgrep(): Promise<CheckResult> {
  const rg = await ripgrepPath();
  const version = await versionOf(rg, ['--version']);
  if (version) return passed('ripgrep', version, true);
  return failed(
    'ripgrep',
    'ripgrep does not run; the search tools need it',
    'reinstall lathe (npm install ships ripgrep), or install ripgrep (apt install ripgrep)',
    true,
  );
}

/** A program that some tools need; missing, those tools are not offered or fail. */
async function optionalProgram(
  name: string,
  candidates: readonly string[],
  versionArgs: string[] | undefined,
  why: string,
  fix: string,
): Promise<CheckResult> {
  const path = findOnPath(candidates);
  if (!path) return failed(name, `not found on PATH (${why})`, fix);
  const version = versionArgs ? await versionOf(path, versionArgs) : undefined;
  return passed(name, version ? `${version} (${path})` : path);
}

export const checkGit = () =>
  optionalProgram(
    'git',
    ['git'],
    ['--version'],
    'checkpoints, worktrees and git status',
    'install git (apt install git)',
  );

export const checkTmux = () =>
  optionalProgram('tmux', ['tmux'], ['-V'], 'the terminal panel', 'install tmux (apt install tmux)');

export const checkChromium = () =>
  optionalProgram(
    'chromium',
    CHROMIUM_NAMES,
    undefined,
    'the browser tools',
    'install Chromium (apt install chromium-headless-shell, or chromium)',
  );

/**
 * The language servers of the table, each probed: one line for each bundled, configured or
 * found server (a program on PATH that does not start fails), one for those not on PATH.
 */
export async function checkLanguageServers(
  settings: LspSettings = DEFAULT_LSP_SETTINGS,
): Promise<CheckResult[]> {
  const rows = await new LanguageServers({ settings }).probedStatus();
  const absent = rows.filter((row) => !row.command && row.source === 'path');
  const results = rows
    .filter((row) => !absent.includes(row))
    .map((row) =>
      row.found
        ? passed(`language server ${row.name}`, row.version ?? row.command ?? '')
        : failed(`language server ${row.name}`, row.problem ?? 'not found', row.install ?? 'see docs/lsp.md'),
    );
  if (absent.length > 0)
    results.push(
      failed(
        'language servers',
        `not on PATH: ${absent.map((row) => row.name).join(', ')}`,
        'each is optional, for its language; lathe lsp status says how to install each',
      ),
    );
  return results;
}

export async function checkBubblewrap(): Promise<CheckResult> {
  if (process.platform !== 'linux') return passed('bubblewrap', `not used on ${process.platform}`);
  const path = findOnPath(['bwrap']);
  if (!path)
    return failed(
      'bubblewrap',
      'bwrap not found on PATH: commands cannot run sandboxed',
      'install bubblewrap (apt install bubblewrap)',
    );
  const version = await versionOf(path, ['--version']);
  return passed('bubblewrap', version ? `${version} (${path})` : path);
}
