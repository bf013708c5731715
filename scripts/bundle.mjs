// Bundles the command into dist/bin/: one parse instead of hundreds of module files makes
// start-up about 100 ms faster. Native, wasm and rarely used heavy packages stay external and
// are loaded only when needed.
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

/**
 * zod's namespace export carries every message locale (about 260 KB on the path of `lathe -p`,
 * a quarter of the code it loads); lathe speaks English, zod's default, so only `en` is bundled.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, ({ importer }) =>
      importer.includes('/node_modules/zod/')
        ? { path: join(dirname(importer), '../locales/en.js'), namespace: 'zod-english-only' }
        : undefined,
    );
    esbuild.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, ({ path }) => ({
      contents: `export { default as en } from ${JSON.stringify(path)};`,
      resolveDir: dirname(path),
    }));
  },
};

/**
 * The AI SDK's provider-utils takes one enum from zod 3 (to read zod 3 schemas) and would bring
 * zod 3 whole (about 55 KB on the path of `lathe -p`): it gets the enum alone, same values. A
 * further import from zod 3 there fails the build ("No matching export").
 */
const zod3KindsOnly = {
  name: 'zod3-kinds-only',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^zod\/v3$/ }, ({ importer }) =>
      importer.includes('/@ai-sdk/provider-utils/') ? { path: 'zod-v3-kinds', namespace: 'zod3-kinds-only' } : undefined,
    );
    esbuild.onLoad({ filter: /.*/, namespace: 'zod3-kinds-only' }, async () => {
      const { ZodFirstPartyTypeKind } = await import('zod/v3');
      return { contents: `export const ZodFirstPartyTypeKind = ${JSON.stringify(ZodFirstPartyTypeKind)};` };
    });
  },
};

/**
 * React, its reconciler and its scheduler choose their development or production build by
 * NODE_ENV when they load; bundled, both would be parsed at every start of the UI (about 260 KB
 * of development code, never run there). The bundle holds the production builds alone, all of
 * them (a development jsx-runtime over a production React would fail), whatever NODE_ENV says.
 */
const reactProductionOnly = {
  name: 'react-production-only',
  setup(esbuild) {
    esbuild.onLoad(
      { filter: /\/node_modules\/(react|react-reconciler|scheduler)\/(index|jsx-runtime|jsx-dev-runtime|constants)\.js$/ },
      ({ path }) => {
        const source = readFileSync(path, 'utf8');
        const choice = "process.env.NODE_ENV === 'production'";
        if (!source.includes(choice))
          throw new Error(`${path} no longer chooses its build by NODE_ENV: see reactProductionOnly in scripts/bundle.mjs`);
        return { contents: source.replaceAll(choice, 'true'), loader: 'js', resolveDir: dirname(path) };
      },
    );
  },
};

// Chunk names change with their content: clear out the last build's.
rmSync('dist/bin', { recursive: true, force: true });

await build({
  // The checkpoints' snapshot thread loads its own entry, found beside the chunk that starts it.
  entryPoints: { lathe: 'src/cli/main.ts', snapshot_worker: 'src/checkpoints/snapshot_worker.ts' },
  outdir: 'dist/bin',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  // Chunks sit beside the entry, one level below dist/ like the library's modules, so paths
  // relative to a module (dist/token-counts.json, dist/tool-schemas.json, package.json) hold for both.
  chunkNames: '[name]-[hash]',
  // Ink loads react-devtools-core only under DEV=true; it is not installed, so it stays out.
  external: [
    'sharp',
    'unpdf',
    'web-tree-sitter',
    '@vscode/ripgrep',
    '@vscode/tree-sitter-wasm',
    'gpt-tokenizer',
    // Reads its own files at run time; loaded only by browser_action.
    'playwright-core',
    'react-devtools-core',
    // Loaded only when a proxy is set; its CommonJS exports need Node's own loader.
    'undici',
  ],
  // Bundled CommonJS packages (commander) call require(); ESM output has none of its own.
  banner: { js: "import { createRequire as __latheRequire } from 'node:module'; const require = __latheRequire(import.meta.url);" },
  plugins: [zodEnglishOnly, zod3KindsOnly, reactProductionOnly],
  logLevel: 'warning',
});
