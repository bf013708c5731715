import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FileState, parsePatch, patchPaths, planPatch } from '../../src/edit/apply_patch/index.js';

const RUNS = { numRuns: 10_000 };
const PATHS = ['a', 'b', 'dir/c'];

/** Short texts from a tiny alphabet, so generated patches often hit real file lines. */
const word = fc.constantFrom('x', 'y', 'z', ' x', 'x ', '\tx', '', '\u2013', '@@', '***');
const path = fc.constantFrom(...PATHS);

const patchLine = fc.oneof(
  word.map((w) => `+${w}`),
  word.map((w) => `-${w}`),
  word.map((w) => ` ${w}`),
  fc.constantFrom('@@', '*** End of File', '', '*** Begin Patch', '*** End Patch', 'junk'),
  word.map((w) => `@@ ${w}`),
  path.map((p) => `*** Update File: ${p}`),
  path.map((p) => `*** Add File: ${p}`),
  path.map((p) => `*** Delete File: ${p}`),
  path.map((p) => `*** Move to: ${p}`),
  fc.string({ maxLength: 12 }),
);
const structuredPatch = fc
  .array(patchLine, { maxLength: 14 })
  .map((lines) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n'));

/**
 * Patches that are well formed by construction, so every run reaches the planner: random text
 * parses only a few percent of the time, which left most of the planner's runs doing nothing.
 */
const bodyLine = fc.oneof(
  word.map((w) => ` ${w}`),
  word.map((w) => `-${w}`),
  word.map((w) => `+${w}`),
);
const chunkText = fc
  .record({
    header: fc.oneof(
      fc.constant('@@'),
      word.map((w) => `@@ ${w}`),
    ),
    body: fc.array(bodyLine, { minLength: 1, maxLength: 6 }),
    endOfFile: fc.boolean(),
  })
  .map(({ header, body, endOfFile }) => [header, ...body, ...(endOfFile ? ['*** End of File'] : [])]);
const opText = fc.oneof(
  fc
    .tuple(path, fc.array(word, { maxLength: 4 }))
    .map(([p, lines]) => [`*** Add File: ${p}`, ...lines.map((line) => `+${line}`)]),
  path.map((p) => [`*** Delete File: ${p}`]),
  fc
    .tuple(path, fc.option(path), fc.array(chunkText, { minLength: 1, maxLength: 3 }))
    .map(([p, moveTo, chunks]) => [
      `*** Update File: ${p}`,
      ...(moveTo === null ? [] : [`*** Move to: ${moveTo}`]),
      ...chunks.flat(),
    ]),
);
const wellFormedPatch = fc
  .array(opText, { minLength: 1, maxLength: 4 })
  .map((ops) => ['*** Begin Patch', ...ops.flat(), '*** End Patch'].join('\n'));

const fileState: fc.Arbitrary<FileState> = fc.oneof(
  fc.constant(null),
  fc.constant('directory' as const),
  fc
    .tuple(fc.array(word, { maxLength: 8 }), fc.constantFrom('\n', '\r\n', ''))
    .map(([lines, eol]) => lines.join(eol === '' ? '\n' : eol) + eol),
);

describe('apply_patch properties', () => {
  it('parsePatch never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 200 }), structuredPatch), (text) => {
        const parsed = parsePatch(text);
        expect(typeof parsed.ok).toBe('boolean');
        if (!parsed.ok) expect(parsed.error.length).toBeGreaterThan(0);
      }),
      RUNS,
    );
  });

  it('planPatch never throws, never mutates its input, and a refusal carries no changes', () => {
    let applied = 0;
    fc.assert(
      fc.property(wellFormedPatch, fc.tuple(fileState, fileState, fileState), (text, states) => {
        const parsed = parsePatch(text);
        // Every run counts: a generated patch that does not parse fails the test.
        expect(parsed.ok, text).toBe(true);
        if (!parsed.ok) return;
        const files = new Map<string, FileState>(PATHS.map((p, i) => [p, states[i]]));
        const before = new Map(files);
        const result = planPatch(parsed.ops, files);
        expect(files).toEqual(before);
        if (result.ok) {
          applied++;
          const touched = new Set(patchPaths(parsed.ops));
          for (const change of result.changes) expect(touched.has(change.path)).toBe(true);
        } else {
          expect(Object.keys(result).sort()).toEqual(['error', 'ok']);
          expect(result.error.length).toBeGreaterThan(0);
        }
      }),
      RUNS,
    );
    // Both outcomes are exercised, not only refusals.
    expect(applied).toBeGreaterThan(RUNS.numRuns / 20);
  });

  it('a single-chunk update on a file of unique lines yields exactly the intended content', () => {
    const lineText = fc.string({ maxLength: 10 }).filter((s) => !s.includes('\n') && !s.includes('\r'));
    const scenario = fc.uniqueArray(lineText, { minLength: 1, maxLength: 30 }).chain((lines) =>
      fc.record({
        lines: fc.constant(lines),
        start: fc.nat({ max: lines.length - 1 }),
        length: fc.integer({ min: 1, max: lines.length }),
        kinds: fc.array(fc.boolean(), { minLength: lines.length, maxLength: lines.length }),
        additions: fc.array(fc.tuple(fc.nat({ max: lines.length }), lineText), { maxLength: 4 }),
        eol: fc.constantFrom('\n', '\r\n'),
        finalNewline: fc.boolean(),
        useHeader: fc.boolean(),
        markEnd: fc.boolean(),
      }),
    );
    fc.assert(
      fc.property(scenario, (s) => {
        const length = Math.min(s.length, s.lines.length - s.start);
        const region = s.lines.slice(s.start, s.start + length);
        const chunk: string[] = [];
        const after: string[] = [];
        region.forEach((line, i) => {
          for (const [at, text] of s.additions) {
            if (at === i) {
              chunk.push(`+${text}`);
              after.push(text);
            }
          }
          if (s.kinds[i]) {
            chunk.push(` ${line}`);
            after.push(line);
          } else {
            chunk.push(`-${line}`);
          }
        });
        for (const [at, text] of s.additions) {
          if (at >= region.length) {
            chunk.push(`+${text}`);
            after.push(text);
          }
        }
        const atEnd = s.start + length === s.lines.length;
        const header = s.useHeader && s.start > 0 ? `@@ ${s.lines[s.start - 1]}` : '@@';
        const patchText = [
          '*** Begin Patch',
          '*** Update File: f',
          header,
          ...chunk,
          ...(s.markEnd && atEnd ? ['*** End of File'] : []),
          '*** End Patch',
        ].join('\n');

        const needsNewline = s.finalNewline || s.lines.at(-1) === '';
        const content = s.lines.join(s.eol) + (needsNewline ? s.eol : '');
        const parsed = parsePatch(patchText);
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        const result = planPatch(parsed.ops, new Map([['f', content]]));
        const expectedLines = [...s.lines.slice(0, s.start), ...after, ...s.lines.slice(s.start + length)];
        // A file without any line ending gives no hint, so new lines use LF.
        const eol = s.lines.length > 1 || needsNewline ? s.eol : '\n';
        const joined = expectedLines.map((line) => line + eol).join('');
        // A file without a final newline keeps none.
        const expected = needsNewline ? joined : joined.slice(0, joined.length - eol.length);
        expect(result).toMatchObject({ ok: true });
        if (!result.ok) return;
        const written = result.changes.find((change) => change.path === 'f')?.content ?? content;
        expect(written).toBe(expected);
      }),
      RUNS,
    );
  });
});
