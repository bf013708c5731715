// A generated source tree for the search benchmarks: `files` small files, 100 to a folder, 5,000
// to a package, five extensions in turn, and a needle line in one file of every 997.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PER_FOLDER = 100;
const PER_PACKAGE = 5_000;
const EXTENSIONS = ['ts', 'js', 'py', 'md', 'json'];

export function generateTree(root: string, files: number): void {
  for (let i = 0; i < files; i++) {
    const folder = join(root, `pkg${Math.floor(i / PER_PACKAGE)}`, `dir${Math.floor(i / PER_FOLDER)}`);
    if (i % PER_FOLDER === 0) mkdirSync(folder, { recursive: true });
    const needle = i % 997 === 0 ? 'const needleValue = computeDigest(input);\n' : '';
    const body = `// file ${i}\nexport function f${i}(a: number) {\n  return a * ${i};\n}\n${needle}`;
    writeFileSync(join(folder, `file${i}.${EXTENSIONS[i % EXTENSIONS.length]}`), body);
  }
}
