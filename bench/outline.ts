import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { outlineSource } from '../src/outline/index.js';

const FILE_COUNT = 200;
const COLD_RUNS = 5;
const WARM_RUNS = 10;
const COLD_CHILD_FLAG = '--cold-child';

/** A deterministic TypeScript module of about 200 lines: interfaces, classes with methods, functions. */
export function makeTypeScriptFile(index: number): string {
  const parts = [`import { EventEmitter } from 'node:events';\n`];
  for (let block = 0; block < 6; block++) {
    const name = `Service${index}x${block}`;
    parts.push(`/** Options for ${name}. */
export interface ${name}Options {
  retries: number;
  timeoutMs?: number;
  onError(error: Error): void;
}

export class ${name} extends EventEmitter {
  private readonly cache = new Map<string, number>();

  constructor(private readonly options: ${name}Options) {
    super();
  }

  async fetch(key: string): Promise<number | undefined> {
    for (let attempt = 0; attempt < this.options.retries; attempt++) {
      const value = this.cache.get(key);
      if (value !== undefined) return value;
    }
    return undefined;
  }

  store(key: string, value: number): void {
    this.cache.set(key, value);
    this.emit('stored', key);
  }
}

export function create${name}(retries = 3): ${name} {
  return new ${name}({ retries, onError: (error) => console.error(error) });
}

export const is${name} = (value: unknown): value is ${name} => value instanceof ${name};
`);
  }
  return parts.join('\n');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Outlines every file in order; returns the time to the first file and to the last, in ms. */
async function outlineAll(files: string[]): Promise<{ firstMs: number; allMs: number }> {
  const start = performance.now();
  await outlineSource(files[0], 'file0.ts');
  const firstMs = performance.now() - start;
  for (let i = 1; i < files.length; i++) await outlineSource(files[i], `file${i}.ts`);
  return { firstMs, allMs: performance.now() - start };
}

/**
 * Grammars stay loaded for the life of a process, so each cold run happens in a fresh child
 * process (started with this process's loader flags) that outlines the files once and reports.
 */
function runColdChild(): { firstMs: number; allMs: number } {
  const child = spawnSync(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), COLD_CHILD_FLAG],
    { encoding: 'utf8' },
  );
  if (child.status !== 0) throw new Error(`cold run failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!);
}

export async function benchOutline(): Promise<Array<{ name: string; medianMs: number; runs: number }>> {
  const files = Array.from({ length: FILE_COUNT }, (_, i) => makeTypeScriptFile(i));
  const cold = Array.from({ length: COLD_RUNS }, runColdChild);
  await outlineAll(files);
  const warm: number[] = [];
  for (let run = 0; run < WARM_RUNS; run++) warm.push((await outlineAll(files)).allMs);
  return [
    {
      name: 'outline first file, cold (runtime + grammar load)',
      medianMs: median(cold.map((r) => r.firstMs)),
      runs: COLD_RUNS,
    },
    {
      name: `outline ${FILE_COUNT} TS files, cold`,
      medianMs: median(cold.map((r) => r.allMs)),
      runs: COLD_RUNS,
    },
    { name: `outline ${FILE_COUNT} TS files, warm`, medianMs: median(warm), runs: WARM_RUNS },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes(COLD_CHILD_FLAG)) {
    const files = Array.from({ length: FILE_COUNT }, (_, i) => makeTypeScriptFile(i));
    console.log(JSON.stringify(await outlineAll(files)));
  } else {
    const lines = makeTypeScriptFile(0).split('\n').length;
    console.log(`${FILE_COUNT} files of ${lines} lines`);
    for (const result of await benchOutline()) {
      console.log(`${result.name}: ${result.medianMs.toFixed(1)} ms (median of ${result.runs})`);
    }
  }
}
