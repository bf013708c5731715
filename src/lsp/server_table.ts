import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { LanguageServerSetting } from '../config/lsp_settings.js';
import { findOnPath } from '../util/find_on_path.js';

/** One row of the server table, with its command resolved (or why it was not found). */
export interface ServerSpec {
  name: string;
  /** The program and its arguments; absent when it was not found. */
  command?: string;
  args: string[];
  languages: string[];
  /** Extension → language id for extensions beyond the known ones. */
  extensions: Record<string, string>;
  rootMarkers: string[];
  initializationOptions?: unknown;
  /** Where the command came from: lathe's own dependencies, PATH or settings. */
  source: 'bundled' | 'path' | 'settings';
  /** The bundled package's version, when known without running it. */
  version?: string;
  /** Why it cannot start (not on PATH, turned off). */
  missing?: string;
  /**
   * How lathe gets a file's diagnostics: asked of tsserver, pulled (`textDocument/diagnostic`,
   * which pyright answers without announcing it), or (default) the server's publishes, or a
   * pull where the server announces one.
   */
  diagnostics?: 'tsserver' | 'pull';
}

const require = createRequire(import.meta.url);

/** A package of lathe's own install: its folder and version, or undefined when it is not there. */
function ownPackage(name: string): { dir: string; version: string } | undefined {
  try {
    const manifest = require.resolve(`${name}/package.json`);
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
    return { dir: dirname(manifest), version };
  } catch {
    return undefined;
  }
}

const TS_LANGUAGES = ['typescript', 'typescriptreact', 'javascript', 'javascriptreact'];

/** The servers lathe knows: TypeScript and Python from its own dependencies, the others when on PATH. */
function builtinServers(path: string | undefined): ServerSpec[] {
  const specs: ServerSpec[] = [];
  const tsls = ownPackage('typescript-language-server');
  const typescript = ownPackage('typescript');
  specs.push({
    name: 'typescript',
    source: 'bundled',
    diagnostics: 'tsserver',
    languages: TS_LANGUAGES,
    extensions: {},
    rootMarkers: ['tsconfig.json', 'jsconfig.json', 'package.json'],
    ...(tsls && typescript
      ? {
          command: process.execPath,
          args: [join(tsls.dir, 'lib', 'cli.mjs'), '--stdio'],
          version: `typescript-language-server ${tsls.version}, typescript ${typescript.version}`,
          // Automatic type acquisition would run npm: nothing is downloaded at run time.
          initializationOptions: {
            // One semantic server: a syntax-only one answers early requests from one file alone.
            tsserver: { path: join(typescript.dir, 'lib', 'tsserver.js'), useSyntaxServer: 'never' },
            disableAutomaticTypingAcquisition: true,
          },
        }
      : { args: [], missing: 'typescript-language-server is not installed with lathe' }),
  });
  const pyright = ownPackage('pyright');
  specs.push({
    name: 'pyright',
    source: 'bundled',
    diagnostics: 'pull',
    languages: ['python'],
    extensions: {},
    rootMarkers: ['pyrightconfig.json', 'pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt'],
    ...(pyright && existsSync(join(pyright.dir, 'langserver.index.js'))
      ? {
          command: process.execPath,
          args: [join(pyright.dir, 'langserver.index.js'), '--stdio'],
          version: `pyright ${pyright.version}`,
        }
      : { args: [], missing: 'pyright is not installed with lathe' }),
  });
  const onPath = (
    name: string,
    program: string,
    args: string[],
    languages: string[],
    rootMarkers: string[],
  ): ServerSpec => {
    const found = findOnPath([program], { PATH: path });
    return {
      name,
      source: 'path',
      args,
      languages,
      extensions: {},
      rootMarkers,
      ...(found ? { command: found } : { missing: `${program} not found on PATH` }),
    };
  };
  specs.push(onPath('gopls', 'gopls', [], ['go'], ['go.work', 'go.mod']));
  specs.push(onPath('rust-analyzer', 'rust-analyzer', [], ['rust'], ['Cargo.toml']));
  specs.push(
    onPath('clangd', 'clangd', [], ['c', 'cpp'], ['compile_commands.json', 'compile_flags.txt', '.clangd']),
  );
  specs.push(onPath('bash-language-server', 'bash-language-server', ['start'], ['shellscript'], []));
  return specs;
}

/**
 * The whole server table, built before any request: settings entries merged over the built-ins
 * of the same name (key by key), new names added. A settings command is looked up on PATH
 * unless it is a path.
 */
export function serverTable(
  settings: Readonly<Record<string, LanguageServerSetting>>,
  path: string | undefined = process.env.PATH,
): ServerSpec[] {
  const table = new Map(builtinServers(path).map((spec) => [spec.name, spec]));
  for (const [name, setting] of Object.entries(settings)) {
    const base = table.get(name);
    const spec: ServerSpec = {
      name,
      source: base?.source ?? 'settings',
      args: base?.args ?? [],
      languages: base?.languages ?? [],
      extensions: { ...base?.extensions },
      rootMarkers: base?.rootMarkers ?? [],
      ...(base?.command ? { command: base.command } : {}),
      ...(base?.version ? { version: base.version } : {}),
      ...(base?.missing ? { missing: base.missing } : {}),
      ...(base?.diagnostics ? { diagnostics: base.diagnostics } : {}),
      ...(base?.initializationOptions !== undefined
        ? { initializationOptions: base.initializationOptions }
        : {}),
    };
    if (setting.command !== undefined) {
      const command = setting.command.includes('/')
        ? setting.command
        : findOnPath([setting.command], { PATH: path });
      spec.source = 'settings';
      delete spec.version;
      delete spec.diagnostics;
      spec.args = setting.args ?? [];
      if (command && existsSync(command)) {
        spec.command = command;
        delete spec.missing;
      } else {
        delete spec.command;
        spec.missing = `${setting.command} not found${setting.command.includes('/') ? '' : ' on PATH'}`;
      }
    } else if (setting.args) spec.args = setting.args;
    if (setting.languages) spec.languages = setting.languages;
    if (setting.rootMarkers) spec.rootMarkers = setting.rootMarkers;
    if (setting.initializationOptions !== undefined)
      spec.initializationOptions = setting.initializationOptions;
    for (const ext of setting.extensions ?? []) {
      const dotted = ext.startsWith('.') ? ext : `.${ext}`;
      if (spec.languages[0]) spec.extensions[dotted.toLowerCase()] = spec.languages[0];
    }
    if (setting.enabled === false) {
      delete spec.command;
      spec.missing = 'turned off in settings';
    }
    if (!spec.command && !spec.missing) spec.missing = 'no command in settings';
    table.set(name, spec);
  }
  return [...table.values()];
}
