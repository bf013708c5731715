// Bundles the command into dist/bin/: one parse instead of hundreds of module files makes
// start-up about 100 ms faster. Native, wasm and rarely used heavy packages stay external and
// are loaded only when needed.
import { build } from 'esbuild';

await build({
  entryPoints: { lathe: 'src/cli/main.ts' },
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
  // relative to a module (dist/token-counts.json, package.json) hold for both.
  chunkNames: '[name]-[hash]',
  // Ink loads react-devtools-core only under DEV=true; it is not installed, so it stays out.
  external: [
    'sharp',
    'unpdf',
    'web-tree-sitter',
    '@vscode/ripgrep',
    '@vscode/tree-sitter-wasm',
    'gpt-tokenizer',
    'react-devtools-core',
    // Loaded only when a proxy is set; its CommonJS exports need Node's own loader.
    'undici',
  ],
  // Bundled CommonJS packages (commander) call require(); ESM output has none of its own.
  banner: { js: "import { createRequire as __latheRequire } from 'node:module'; const require = __latheRequire(import.meta.url);" },
  logLevel: 'warning',
});
