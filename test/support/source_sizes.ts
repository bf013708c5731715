// Sizes of the source files and functions under src/, for the size-limit test.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export const ROOT = join(import.meta.dirname, '..', '..');
export const SRC = join(ROOT, 'src');

export function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

export function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Every function-like node over the limit, with its name and length in lines. */
export function longFunctions(limit: number): Map<string, number> {
  const found = new Map<string, number>();
  for (const path of sourceFiles(SRC)) {
    const text = readFileSync(path, 'utf8');
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
        const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = end - start + 1;
        if (lines > limit) found.set(`${relative(ROOT, path)}:${functionName(node)}`, lines);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

function functionName(node: ts.Node): string {
  const named = node as { name?: ts.Node };
  if (named.name && ts.isIdentifier(named.name)) return named.name.text;
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  return `(anonymous, line ${node.getSourceFile().getLineAndCharacterOfPosition(node.getStart()).line + 1})`;
}

export function printLongFunctions(limit: number): void {
  for (const [name, lines] of [...longFunctions(limit)].sort((a, b) => b[1] - a[1])) {
    console.log(`${lines}\t${name}`);
  }
}
