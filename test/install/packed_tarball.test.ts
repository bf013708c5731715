import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeModelServer } from '../support/fake_model_server.js';
import { fakeModelEnv } from '../support/headless_run.js';
import { tempDir } from '../support/runtime_fixtures.js';

/**
 * lathe as a user installs it: the tarball `npm pack` makes, installed with `npm i -g` into a
 * fresh prefix from the registry, with an empty cache and no development dependencies, then run
 * from there, outside the checkout. `npm run test:slow` has just built dist/, so the tarball is
 * packed without running the build again (it would rewrite dist/ under the other tests).
 */
const run = promisify(execFile);
const checkout = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8')) as {
  version: string;
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
};
const INSTALL_TIMEOUT = 600_000;

/** Ink imports it only when DEV=true, for React's devtools; lathe never sets that. */
const NEVER_INSTALLED = ['react-devtools-core'];

/** `from "pkg/sub"` or `import("pkg")`, minified or not; the package's name is captured. */
const PACKAGE_IMPORT =
  /\b(?:from|import)\s*\(?\s*["']((?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*)(?:\/[\w./-]*)?["']/g;

/** The packages named by the imports of the .js files under `dir` (node's own modules aside). */
function importedPackages(dir: string): string[] {
  const names = new Set<string>();
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.js'),
  );
  for (const file of files) {
    const code = readFileSync(join(dir, file), 'utf8');
    for (const [, name] of code.matchAll(PACKAGE_IMPORT)) if (!builtinModules.includes(name)) names.add(name);
  }
  return [...names].sort();
}

let prefix = '';
let packed: string[] = [];
/** Nothing of the checkout on PATH: the installed command, node, and the system's programs. */
let env: NodeJS.ProcessEnv = {};

function installed(args: string[], extra: Record<string, string> = {}) {
  return run(join(prefix, 'bin', 'lathe'), args, { cwd: tempDir('lathe-user-'), env: { ...env, ...extra } });
}

beforeAll(async () => {
  const work = tempDir('lathe-pack-');
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
    cwd: checkout,
    maxBuffer: 64 * 1024 * 1024,
  });
  const [pack] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packed = pack.files.map((file) => file.path);
  prefix = join(work, 'prefix');
  const npmArgs = [
    '--prefix',
    prefix,
    '--cache',
    join(work, 'cache'),
    '--omit=dev',
    '--no-audit',
    '--no-fund',
  ];
  await run('npm', ['install', '--global', ...npmArgs, join(work, pack.filename)], {
    cwd: work,
    timeout: INSTALL_TIMEOUT,
  });
  const home = tempDir('lathe-user-home-');
  env = {
    PATH: [join(prefix, 'bin'), dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    HOME: home,
    LATHE_HOME: join(home, '.lathe'),
    TMPDIR: process.env.TMPDIR ?? '/tmp',
  };
}, INSTALL_TIMEOUT + 60_000);

describe('the packed tarball', () => {
  it('carries the built command, the library, its licence and docs, and neither sources nor tests', () => {
    for (const file of [
      'dist/bin/lathe.js',
      'dist/index.js',
      'dist/index.d.ts',
      'LICENSE',
      'README.md',
      'docs/tools.md',
    ])
      expect(packed).toContain(file);
    const strays = packed.filter((file) => /^(src|test|bench|scripts|examples|node_modules)\//.test(file));
    expect(strays).toEqual([]);
  });

  it('builds when packed, and not when installed', () => {
    // `prepare` runs before `npm pack` and on `npm install` in a clone, never for a tarball.
    expect(manifest.scripts.prepare).toBe('npm run build');
    expect(manifest.scripts.postinstall).toBeUndefined();
    expect(manifest.scripts.install).toBeUndefined();
  });

  it('installs without development dependencies', () => {
    const modules = join(prefix, 'lib', 'node_modules', 'lathe', 'node_modules');
    const present = Object.keys(manifest.devDependencies).filter((name) => existsSync(join(modules, name)));
    expect(present).toEqual([]);
  });

  it('has every package its code imports', () => {
    const root = join(prefix, 'lib', 'node_modules', 'lathe');
    const missing = importedPackages(join(root, 'dist')).filter(
      (name) => !existsSync(join(root, 'node_modules', name)) && !NEVER_INSTALLED.includes(name),
    );
    expect(missing).toEqual([]);
  });

  it('prints its version', async () => {
    const { stdout } = await installed(['--version']);
    expect(stdout.trim()).toBe(manifest.version);
  });

  it('passes lathe doctor, with the ripgrep it installed', async () => {
    const { stdout } = await installed(['doctor']);
    expect(stdout).toMatch(/^✓ ripgrep +ripgrep \d/m);
    expect(stdout).toContain('Everything essential works');
  });
});

describe('the installed command runs a task', () => {
  let server: FakeModelServer | undefined;
  afterAll(async () => server?.close());

  it('against a model server, headless', async () => {
    server = await FakeModelServer.start({
      turns: [{ toolCalls: [{ name: 'attempt_completion', input: { result: 'Installed and working.' } }] }],
    });
    const args = ['-p', 'say it works', '--model', 'anthropic/claude-sonnet-4-5', '--output-format', 'json'];
    const { stdout } = await installed(args, {
      ...fakeModelEnv(server, env.LATHE_HOME ?? ''),
      PATH: env.PATH ?? '',
    });
    const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '');
    expect(result).toMatchObject({ is_error: false, result: 'Installed and working.' });
  });
});
