import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SRC = join(ROOT, 'src');

/** Every TypeScript file under src/, as a path relative to it. */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [relative(SRC, path)] : [];
  });
}

/** The source file a relative specifier names (`./x.js` is `x.ts`, `x.tsx` or `x/index.ts`). */
function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(join(SRC, from)), specifier.replace(/\.js$/, ''));
  const found = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((path) => existsSync(path));
  return found && relative(SRC, found);
}

/** file → the files it imports: static, type-only, re-exports and dynamic `import()` alike. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles()) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(SRC, file), 'utf8'), true, true);
    const targets = importedFiles
      .map((imported) => imported.fileName)
      .filter((specifier) => specifier.startsWith('.') && !specifier.endsWith('.json'))
      .map((specifier) => {
        const target = resolveImport(file, specifier);
        if (!target) throw new Error(`${file} imports ${specifier}, which is no source file`);
        return target;
      });
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The top-level folder (or file) of src/ a file belongs to: `tui/session/x.ts` → `tui`. */
const placeOf = (file: string) => file.split('/')[0].replace(/\/$/, '');

/** folder (or top-level file) → its layer, from the table in docs/architecture.md. */
function layerTable(): Map<string, number> {
  const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const layers = new Map<string, number>();
  for (const [, layer, folders] of doc.matchAll(/^\| (\d+) \| ([^|]+) \|/gm)) {
    for (const [, name] of folders.matchAll(/`([^`]+)`/g)) layers.set(name.replace(/\/$/, ''), Number(layer));
  }
  return layers;
}

/** The import circles: strongly connected groups of more than one file, or a file importing itself. */
function importCircles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || graph.get(file)?.includes(file)) circles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}

describe('imports in src/', () => {
  const graph = importGraph();
  const layers = layerTable();

  it('form no circle, counting type-only and dynamic imports', () => {
    expect(importCircles(graph)).toEqual([]);
  });

  it('come only from folders the layer table of docs/architecture.md places', () => {
    const unplaced = [...new Set([...graph.keys()].map(placeOf))].filter((place) => !layers.has(place));
    expect(unplaced).toEqual([]);
  });

  it('point down the layer table, never sideways or up', () => {
    const wrong: string[] = [];
    for (const [file, targets] of graph) {
      const from = placeOf(file);
      for (const target of targets) {
        const to = placeOf(target);
        if (from === to) continue;
        const arrow = `${file} -> ${target}`;
        if (layers.get(to)! >= layers.get(from)!)
          wrong.push(`${arrow} (layer ${layers.get(from)} to ${layers.get(to)})`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
