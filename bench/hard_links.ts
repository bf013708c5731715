// What judging paths by file identity costs: a check of an ordinary file under a deny rule, the
// first check of a hard-linked file (a walk for the denied and the protected files' names) on a
// generated 50,000-file workspace, and the checks after it (the walk is kept).
import { linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mergeSettings } from '../src/config/settings.js';
import { RulePermissionEngine } from '../src/permission/engine.js';
import { pathRuleTools } from '../src/tool/kinds.js';
import { builtinTools } from '../src/tools/index.js';
import { median, printTable, timeRuns } from './stats.js';

const FILES = 50_000;
const PER_FOLDER = 100;
const RUNS = 7;

function generateTree(root: string): void {
  for (let i = 0; i < FILES; i++) {
    const folder = join(root, `pkg${Math.floor(i / 5_000)}`, `dir${Math.floor(i / PER_FOLDER)}`);
    if (i % PER_FOLDER === 0) mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `file${i}.ts`), `export const f${i} = ${i};\n`);
  }
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, '.git', 'config'), '[core]\n');
  writeFileSync(join(root, 'pkg0', '.env'), 'SECRET=1\n');
  linkSync(join(root, 'pkg0', 'dir0', 'file0.ts'), join(root, 'linked.ts'));
}

export async function benchHardLinks(): Promise<Array<Record<string, string | number>>> {
  const root = mkdtempSync(join(tmpdir(), 'lathe-bench-links-'));
  const documentsRoot = mkdtempSync(join(tmpdir(), 'lathe-bench-links-home-'));
  const settings = mergeSettings([
    { source: 'bench', settings: { permissions: { deny: ['read_file(**/.env)'] } } },
  ]);
  const engine = () =>
    new RulePermissionEngine({
      settings,
      workspace: root,
      documentsRoot,
      cwd: root,
      pathRuleTools: pathRuleTools(builtinTools()),
    });
  try {
    generateTree(root);
    const plain = join('pkg1', 'dir50', 'file5000.ts');
    const kept = engine();
    kept.decidePath('read_file', 'read', 'linked.ts');
    kept.decidePath('write_to_file', 'edit', 'linked.ts');
    const rows = [
      [
        'an ordinary file, **/.env denied (1,000 checks)',
        () => {
          for (let i = 0; i < 1_000; i++) kept.decidePath('read_file', 'read', plain);
        },
      ],
      [
        'a hard-linked file, first read check (walks for **/.env)',
        () => engine().decidePath('read_file', 'read', 'linked.ts'),
      ],
      [
        'a hard-linked file, first write check (walks for denied and protected names)',
        () => engine().decidePath('write_to_file', 'edit', 'linked.ts'),
      ],
      [
        'a hard-linked file, later checks (1,000 reads)',
        () => {
          for (let i = 0; i < 1_000; i++) kept.decidePath('read_file', 'read', 'linked.ts');
        },
      ],
    ] as const;
    const out: Array<Record<string, string | number>> = [];
    for (const [name, fn] of rows)
      out.push({ case: name, 'median ms': median(await timeRuns(RUNS, fn)), runs: RUNS });
    return out;
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(documentsRoot, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printTable(
    'deny rules and protected paths through hard links, 50,000 files, medians',
    await benchHardLinks(),
  );
}
