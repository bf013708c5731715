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
  /** The program's name as its user knows it, where `command` does not say it (Node running a package). */
  program?: string;
  /** Arguments that make the program print its version and exit; absent: it is probed with a handshake. */
  versionArgs?: string[];
  /** How to install it, for `lathe doctor` and `lathe lsp status`. */
  install?: string;
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

/** A server lathe runs when its program is on PATH (a settings entry of the same name changes it). */
interface PathServer {
  name: string;
  program: string;
  args: string[];
  languages: string[];
  rootMarkers: string[];
  versionArgs?: string[];
  install: string;
}

const JAVA_MARKERS = [
  'pom.xml',
  'build.gradle',
  'build.gradle.kts',
  'settings.gradle',
  'settings.gradle.kts',
];

const PATH_SERVERS: readonly PathServer[] = [
  {
    name: 'gopls',
    install: 'apt install gopls, or go install golang.org/x/tools/gopls@latest',
    program: 'gopls',
    args: [],
    languages: ['go'],
    rootMarkers: ['go.work', 'go.mod'],
    versionArgs: ['version'],
  },
  {
    name: 'rust-analyzer',
    install: 'rustup component add rust-analyzer',
    program: 'rust-analyzer',
    args: [],
    languages: ['rust'],
    rootMarkers: ['Cargo.toml'],
    versionArgs: ['--version'],
  },
  {
    name: 'clangd',
    install: 'apt install clangd',
    program: 'clangd',
    args: [],
    languages: ['c', 'cpp'],
    rootMarkers: ['compile_commands.json', 'compile_flags.txt', '.clangd'],
    versionArgs: ['--version'],
  },
  {
    name: 'bash-language-server',
    install: 'npm install -g bash-language-server',
    program: 'bash-language-server',
    args: ['start'],
    languages: ['shellscript'],
    rootMarkers: [],
    versionArgs: ['--version'],
  },
  {
    name: 'yaml-language-server',
    install: 'npm install -g yaml-language-server@1 (2.x needs Node 22)',
    program: 'yaml-language-server',
    args: ['--stdio'],
    languages: ['yaml'],
    rootMarkers: [],
    versionArgs: ['--version'],
  },
  // The three of vscode-langservers-extracted print no version: they are probed with a handshake.
  {
    name: 'vscode-json-language-server',
    install: 'npm install -g vscode-langservers-extracted',
    program: 'vscode-json-language-server',
    args: ['--stdio'],
    languages: ['json', 'jsonc'],
    rootMarkers: [],
  },
  {
    name: 'vscode-css-language-server',
    install: 'npm install -g vscode-langservers-extracted',
    program: 'vscode-css-language-server',
    args: ['--stdio'],
    languages: ['css', 'scss', 'less'],
    rootMarkers: [],
  },
  {
    name: 'vscode-html-language-server',
    install: 'npm install -g vscode-langservers-extracted',
    program: 'vscode-html-language-server',
    args: ['--stdio'],
    languages: ['html'],
    rootMarkers: [],
  },
  {
    name: 'jdtls',
    install: 'install Eclipse JDT Language Server and put its jdtls script on PATH',
    program: 'jdtls',
    args: [],
    languages: ['java'],
    rootMarkers: JAVA_MARKERS,
  },
  {
    name: 'ruby-lsp',
    install: 'gem install ruby-lsp',
    program: 'ruby-lsp',
    args: [],
    languages: ['ruby'],
    rootMarkers: ['Gemfile', '.ruby-version'],
    versionArgs: ['--version'],
  },
  {
    name: 'lua-language-server',
    install: 'install lua-language-server (its releases, or your package manager) on PATH',
    program: 'lua-language-server',
    args: [],
    languages: ['lua'],
    rootMarkers: ['.luarc.json', '.luarc.jsonc'],
    versionArgs: ['--version'],
  },
];

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
          program: 'typescript-language-server',
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
          program: 'pyright-langserver',
          args: [join(pyright.dir, 'langserver.index.js'), '--stdio'],
          version: `pyright ${pyright.version}`,
        }
      : { args: [], missing: 'pyright is not installed with lathe' }),
  });
  for (const row of PATH_SERVERS) {
    const found = findOnPath([row.program], { PATH: path });
    specs.push({
      name: row.name,
      source: 'path',
      args: row.args,
      languages: row.languages,
      extensions: {},
      rootMarkers: row.rootMarkers,
      install: row.install,
      ...(row.versionArgs ? { versionArgs: row.versionArgs } : {}),
      ...(found ? { command: found } : { missing: `${row.program} not found on PATH` }),
    });
  }
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
      ...(base?.versionArgs ? { versionArgs: base.versionArgs } : {}),
      ...(base?.program ? { program: base.program } : {}),
      ...(base?.install ? { install: base.install } : {}),
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
      delete spec.versionArgs;
      delete spec.program;
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
