// find_references and rename on a real project — zod's TypeScript sources as installed
// (node_modules/zod/src, 332 files, with a tsconfig.json of their own) — by lathe's tools (which
// first open the files that hold the name) and by typescript-language-server asked directly
// with only the defining file open: time (warm, medians) and what each finds.
import { cpSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ServerConnection } from '../src/lsp/server_connection.js';
import { serverTable } from '../src/lsp/server_table.js';
import { createRuntime } from '../src/runtime/create_runtime.js';
import { tempDir } from '../test/support/runtime_fixtures.js';
import { median, timeRuns } from './stats.js';

const RUNS = 5;
const FILE = 'v4/core/util.ts';
const SYMBOL = 'mergeDefs';

function project(): string {
  const root = tempDir('lathe-bench-zod-');
  const zod = dirname(createRequire(import.meta.url).resolve('zod/package.json'));
  cpSync(join(zod, 'src'), root, { recursive: true });
  writeFileSync(
    join(root, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'bundler',
        noEmit: true,
      },
    }),
  );
  return root;
}

/** typescript-language-server with the defining file open, asked for the references at the declaration. */
async function direct(root: string): Promise<{ ms: number; count: number; edits: number }> {
  const spec = serverTable({}).find((s) => s.name === 'typescript');
  if (!spec?.command) throw new Error('typescript-language-server is not installed');
  const server = await ServerConnection.start({
    spec: { ...spec, command: spec.command },
    root,
    initTimeoutMs: 60_000,
    requestTimeoutMs: 60_000,
    onCrash: () => undefined,
  });
  try {
    const file = join(root, FILE);
    const { text } = await server.sync(file, 'typescript');
    const line = text.split('\n').findIndex((l) => l.includes(`function ${SYMBOL}(`));
    const character = text.split('\n')[line].indexOf(SYMBOL);
    const ask = () =>
      server.request<unknown[]>('textDocument/references', {
        textDocument: { uri: pathToFileURL(file).href },
        position: { line, character },
        context: { includeDeclaration: true },
      });
    const count = (await ask()).length;
    const ms = median(await timeRuns(RUNS, ask));
    const rename = await server.request<{ changes?: Record<string, unknown[]> }>('textDocument/rename', {
      textDocument: { uri: pathToFileURL(file).href },
      position: { line, character },
      newName: 'mergeDefinitions',
    });
    const edits = Object.values(rename?.changes ?? {}).reduce((n, list) => n + list.length, 0);
    return { ms, count, edits };
  } finally {
    await server.end();
  }
}

export async function benchLspReferences(): Promise<Array<Record<string, string | number>>> {
  const root = project();
  const rows: Array<Record<string, string | number>> = [];
  const plain = await direct(root);
  rows.push({
    case: `typescript-language-server directly: references of ${SYMBOL}`,
    'median ms': Math.round(plain.ms),
    found: plain.count,
  });
  const runtime = createRuntime({ cwd: root, documentsRoot: tempDir('lathe-home-'), yolo: true, env: {} });
  try {
    const references = () => runtime.runTool('find_references', { path: FILE, symbol: SYMBOL });
    const first = await references();
    const count = Number(/^(\d+) references?/.exec(first.text)?.[1] ?? 0);
    rows.push({
      case: `lathe find_references ${SYMBOL}, warm`,
      'median ms': Math.round(median(await timeRuns(RUNS, references))),
      found: count,
    });
    const preview = () =>
      runtime.runTool('rename', {
        path: FILE,
        symbol: SYMBOL,
        new_name: 'mergeDefinitions',
        preview: true,
        accept_leftovers: true,
      });
    const planned = await preview();
    const edits = Number(/: (\d+) edits? in/.exec(planned.text)?.[1] ?? 0);
    rows.push({
      case: `lathe rename ${SYMBOL} (preview), warm`,
      'median ms': Math.round(median(await timeRuns(RUNS, preview))),
      found: edits,
    });
  } finally {
    await runtime.dispose();
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printTable } = await import('./stats.js');
  printTable(`find_references and rename on zod's sources, medians of ${RUNS}`, await benchLspReferences());
}
