// Prompt caching's saving on the `work` scenario (glob, grep, read, edit, run a command, answer),
// against the fake model server emulating Anthropic's prompt cache: input tokens billed at the
// full price, cache writes and reads, and the cost at Claude Sonnet 4.5's prices, with the
// cache breakpoints lathe sends and without them. Token counts are the server's estimate
// (a token per 4 characters of the request), so the figures compare; they are not a bill.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '../src/agent/agent.js';
import { capabilitiesFor } from '../src/provider/capabilities.js';
import { createModel } from '../src/provider/create_model.js';
import { priceFor, requestCost, type TokenUsage } from '../src/provider/prices.js';
import { createRuntime } from '../src/runtime/create_runtime.js';
import { FakeModelServer, type ScriptedTurn } from '../test/support/fake_model_server.js';
import { printTable } from './stats.js';

const SPEC = { provider: 'anthropic' as const, modelId: 'claude-sonnet-4-5' };

/** A small project: a config module, its users and a test. */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lathe-bench-caching-'));
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'test'));
  const config = [
    'export interface Config { port: number; host: string; retries: number }',
    '',
    'export function parseConfig(text: string): Config {',
    '  const raw = JSON.parse(text) as Partial<Config>;',
    '  return { port: raw.port ?? 8080, host: raw.host ?? "localhost", retries: raw.retries ?? 3 };',
    '}',
    ...Array.from({ length: 40 }, (_, i) => `export const option${i} = { name: "option${i}", value: ${i} };`),
  ].join('\n');
  writeFileSync(join(dir, 'src/config.ts'), `${config}\n`);
  for (const name of ['server', 'client', 'cli', 'worker']) {
    const body = [
      `import { parseConfig } from './config.js';`,
      '',
      `export function start${name}(text: string) {`,
      '  const config = parseConfig(text);',
      `  return \`${name} on \${config.host}:\${config.port}\`;`,
      '}',
      ...Array.from({ length: 30 }, (_, i) => `export const ${name}Step${i} = () => ${i};`),
    ].join('\n');
    writeFileSync(join(dir, `src/${name}.ts`), `${body}\n`);
  }
  writeFileSync(
    join(dir, 'test/config.test.ts'),
    "import { parseConfig } from '../src/config.js';\nconsole.log(parseConfig('{}').port === 8080 ? 'ok' : 'fail');\n",
  );
  return dir;
}

const WORK: ScriptedTurn[] = [
  { text: 'Let me find the source files.', toolCalls: [{ name: 'glob', input: { pattern: 'src/**/*.ts' } }] },
  {
    text: 'Now where the config is parsed.',
    toolCalls: [{ name: 'search_files', input: { regex: 'parseConfig' } }],
  },
  { text: 'Reading the parser.', toolCalls: [{ name: 'read_file', input: { path: 'src/config.ts' } }] },
  {
    text: 'The default port should come from PORT.',
    toolCalls: [
      {
        name: 'edit_file',
        input: {
          path: 'src/config.ts',
          old_string: 'port: raw.port ?? 8080',
          new_string: 'port: raw.port ?? Number(process.env.PORT ?? 8080)',
        },
      },
    ],
  },
  {
    text: 'Checking the change.',
    toolCalls: [{ name: 'execute_command', input: { command: 'grep -c PORT src/config.ts && ls test' } }],
  },
  { text: 'parseConfig now takes its default port from PORT; the test folder is unchanged.' },
];

interface Totals extends TokenUsage {
  requests: number;
  costUsd: number;
  /** The input's share of the cost: full-price input, cache writes and cache reads. */
  inputCostUsd: number;
}

async function session(promptCache: boolean): Promise<Totals> {
  const server = await FakeModelServer.start({ turns: WORK, promptCache: { minTokens: 1024 } });
  try {
    const dir = project();
    const runtime = createRuntime({
      cwd: dir,
      documentsRoot: mkdtempSync(join(tmpdir(), 'lathe-bench-home-')),
      env: {},
      approve: 'all',
    });
    const model = await createModel(SPEC, { apiKey: 'bench', baseUrl: server.baseUrl('anthropic') });
    const agent = new Agent({
      runtime,
      model,
      modelName: 'anthropic/claude-sonnet-4-5',
      capabilities: capabilitiesFor(SPEC),
      promptCache,
      user: { ask: async () => ({ answer: '', present: false }), confirm: async () => ({ approved: false }) },
    });
    const outcome = await agent.send('Make the default port come from the PORT variable.');
    if (outcome.kind !== 'final_text') throw new Error(`session ended ${outcome.kind}: ${outcome.text}`);
    await runtime.dispose();
    const price = priceFor(SPEC);
    if (!price) throw new Error('no price for the bench model');
    const requests = server.requests.filter((r) => r.kind === 'model');
    const sum = (pick: (u: TokenUsage) => number) => requests.reduce((n, r) => n + pick(r.usage!), 0);
    const costUsd = requests.reduce((n, r) => n + requestCost(r.usage!, price), 0);
    const inputCostUsd = requests.reduce(
      (n, r) => n + requestCost({ ...r.usage!, outputTokens: 0 }, price),
      0,
    );
    // The cost lathe reports must be the cost of what the server reported.
    if (Math.abs(costUsd - (outcome.costUsd ?? -1)) > 1e-9) throw new Error('reported cost differs');
    return {
      requests: requests.length,
      inputTokens: sum((u) => u.inputTokens),
      cachedInputTokens: sum((u) => u.cachedInputTokens),
      cacheWriteTokens: sum((u) => u.cacheWriteTokens),
      outputTokens: sum((u) => u.outputTokens),
      costUsd,
      inputCostUsd,
    };
  } finally {
    await server.close();
  }
}

const fullPrice = (t: Totals) => t.inputTokens - t.cachedInputTokens - t.cacheWriteTokens;
const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`;

export async function benchCaching(): Promise<Array<Record<string, string | number>>> {
  const off = await session(false);
  const on = await session(true);
  const row = (name: string, t: Totals) => ({
    case: name,
    requests: t.requests,
    'input tokens': t.inputTokens,
    'at full price': fullPrice(t),
    'cache writes': t.cacheWriteTokens,
    'cache reads': t.cachedInputTokens,
    output: t.outputTokens,
    'input $': t.inputCostUsd.toFixed(4),
    'cost $': t.costUsd.toFixed(4),
  });
  return [
    row('work, no cache breakpoints', off),
    row('work, lathe’s breakpoints', on),
    {
      case: 'with caching, of without',
      requests: '',
      'input tokens': '',
      'at full price': percent(fullPrice(on), fullPrice(off)),
      'cache writes': '',
      'cache reads': '',
      output: '',
      'input $': percent(on.inputCostUsd, off.inputCostUsd),
      'cost $': percent(on.costUsd, off.costUsd),
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable('prompt caching over the work scenario (Claude Sonnet 4.5 prices)', await benchCaching());
}
