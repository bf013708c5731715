import * as fs from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type FileLine, forEachLine, forEachLineBackward } from '../../src/session/lines.js';
import { tempDir } from '../support/runtime_fixtures.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('lathe-lines-');
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Lines of many lengths, some longer than the 1 MB read chunk, so lines cross chunk edges. */
function sampleLines(): string[] {
  const lengths = [0, 1, 5, 1_048_575, 1_048_576, 3, 2_500_000, 0, 17, 1_048_577, 9];
  return lengths.map((length, index) => String.fromCharCode(97 + index).repeat(length));
}

function collect(
  file: string,
  backward: boolean,
): Array<Pick<FileLine, 'start' | 'unterminated'> & { text: string }> {
  const seen: Array<Pick<FileLine, 'start' | 'unterminated'> & { text: string }> = [];
  const visit = (line: FileLine) => {
    seen.push({ text: line.bytes.toString('latin1'), start: line.start, unterminated: line.unterminated });
  };
  if (backward) forEachLineBackward(file, visit);
  else forEachLine(file, visit);
  return seen;
}

it.each([
  ['ending with a newline', true],
  ['ending without one', false],
])('forwards and backwards give the same lines and offsets, %s', (_name, endsWithNewline) => {
  const lines = sampleLines();
  const content = lines.join('\n') + (endsWithNewline ? '\n' : '');
  const file = join(dir, 'log.jsonl');
  fs.writeFileSync(file, content, 'latin1');
  let offset = 0;
  const expected = lines.map((text, index) => {
    const line = { text, start: offset, unterminated: !endsWithNewline && index === lines.length - 1 };
    offset += text.length + 1;
    return line;
  });
  expect(collect(file, false)).toEqual(expected);
  expect(collect(file, true)).toEqual([...expected].reverse());
});

it('stops when the visitor returns false, and reads an empty file as no lines', () => {
  const file = join(dir, 'log.jsonl');
  fs.writeFileSync(file, 'one\ntwo\nthree\n');
  const seen: string[] = [];
  forEachLineBackward(file, (line) => {
    seen.push(line.bytes.toString());
    return seen.length < 2 ? undefined : false;
  });
  expect(seen).toEqual(['three', 'two']);
  fs.writeFileSync(file, '');
  expect(collect(file, false)).toEqual([]);
  expect(collect(file, true)).toEqual([]);
});
