import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  indexFile,
  lineMatches,
  parseDiff,
  type ReplaceResult,
  replaceInFile,
  scanFile,
} from '../../src/edit/search_replace/index.js';

const RUNS = { numRuns: 10000 };
const REPLACE_MARKER = /^(?:\+{7}|>{7}) REPLACE>?[ \t]*$/;

// ---------- arbitrary input ----------

const markerish = fc.constantFrom(
  '------- SEARCH',
  '<<<<<<< SEARCH',
  '------- SEARCH>',
  '=======',
  '======= ',
  '+++++++ REPLACE',
  '>>>>>>> REPLACE',
  '+++++++ REPLACE>',
  '....... SKIP',
  '',
  ' ',
  '\t}',
);
const smallLine = fc.oneof(
  markerish,
  fc.constantFrom('a', ' a', '\ta', 'ab', 'b', '}', '  }', 'a\r'),
  fc.string({ maxLength: 6 }),
);
const smallText = fc
  .tuple(fc.array(smallLine, { maxLength: 14 }), fc.constantFrom('\n', '\r\n', '\r'), fc.boolean())
  .map(([ls, eol, bom]) => (bom ? '\uFEFF' : '') + ls.join(eol));

function checkShape(r: ReplaceResult): void {
  if (r.ok) {
    expect(typeof r.content).toBe('string');
    for (const b of r.blocks) {
      expect(b.original.start).toBeLessThanOrEqual(b.original.end);
      expect(b.replaced.end).toBeGreaterThanOrEqual(b.replaced.start - 1);
    }
  } else {
    expect(r).not.toHaveProperty('content');
    expect(typeof r.error).toBe('string');
    expect(r.error.length).toBeGreaterThan(0);
  }
}

describe('never throws', () => {
  it('on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (file, diff) => {
        parseDiff(diff);
        checkShape(replaceInFile(file, diff));
      }),
      RUNS,
    );
  });

  it('on marker-shaped diffs over small files, and a refusal never returns content', () => {
    fc.assert(
      fc.property(smallText, smallText, (file, diff) => {
        parseDiff(diff);
        checkShape(replaceInFile(file, diff));
      }),
      RUNS,
    );
  });
});

// ---------- parsing ----------

const plainLine = fc
  .string({ unit: fc.constantFrom('a', ' ', '\t', '=', '-', '+', '<', '>', '.', 'S', 'R'), maxLength: 9 })
  .filter((s) => !REPLACE_MARKER.test(s) && !/^={7}[ \t]*$/.test(s));

describe('parseDiff', () => {
  it('returns the blocks a diff was built from, whatever its line endings', () => {
    const blockArb = fc.record({
      search: fc.array(plainLine, { maxLength: 4 }),
      replace: fc.array(
        fc
          .oneof(plainLine, fc.constantFrom('=======', '------- SEARCH'))
          .filter((s) => !REPLACE_MARKER.test(s)),
        { maxLength: 4 },
      ),
    });
    fc.assert(
      fc.property(
        fc.array(blockArb, { minLength: 1, maxLength: 4 }),
        fc.constantFrom('\n', '\r\n'),
        (blocks, eol) => {
          const text = blocks
            .map((b) => ['------- SEARCH', ...b.search, '=======', ...b.replace, '+++++++ REPLACE'].join(eol))
            .join(eol);
          const r = parseDiff(text);
          expect(r.ok).toBe(true);
          if (r.ok) expect(r.blocks.map((b) => ({ search: b.search, replace: b.replace }))).toEqual(blocks);
        },
      ),
      RUNS,
    );
  });
});

// ---------- round trip ----------

type FileLine = { blank: true; text: string } | { blank: false; indent: string; body: string };

const indentArb = fc.string({ unit: fc.constantFrom(' ', '\t'), maxLength: 4 });
const tailArb = fc.string({
  unit: fc.constantFrom('a', 'b', ' ', '\t', '=', '-', '+', '.', '<', '>', '}', '{', '(', ';'),
  maxLength: 8,
});
const blankArb = fc.constantFrom('', ' ', '\t', '  ', ' \t');
const lineShape = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(indentArb, tailArb) },
  { weight: 1, arbitrary: blankArb },
);
const replacementLine = fc
  .oneof(
    {
      weight: 4,
      arbitrary: fc.string({ unit: fc.constantFrom('x', 'y', ' ', '\t', '=', '+', '.'), maxLength: 8 }),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', '=======', '------- SEARCH', '<<<<<<< SEARCH', '....... SKIP'),
    },
  )
  .filter((s) => !REPLACE_MARKER.test(s));

const scenarioArb = fc.record({
  shapes: fc.array(lineShape, { minLength: 1, maxLength: 30 }),
  cuts: fc.array(fc.nat(30), { minLength: 2, maxLength: 8 }),
  replacements: fc.array(fc.array(replacementLine, { maxLength: 3 }), { minLength: 4, maxLength: 4 }),
  skipSeeds: fc.array(fc.nat(10_000), { minLength: 4, maxLength: 4 }),
  variants: fc.array(fc.nat(1000), { minLength: 31, maxLength: 31 }),
  order: fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
  eol: fc.constantFrom('\n', '\r\n', '\r'),
  diffEol: fc.constantFrom('\n', '\r\n'),
  bom: fc.boolean(),
  finalNewline: fc.boolean(),
});

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

function buildLines(shapes: Scenario['shapes'], finalNewline: boolean): FileLine[] {
  const lines = shapes.map(
    (s, k): FileLine =>
      typeof s === 'string'
        ? { blank: true, text: s }
        : { blank: false, indent: s[0], body: `L${k}:${s[1]}` },
  );
  if (!lines.some((l) => !l.blank)) lines[0] = { blank: false, indent: '', body: 'L0:' };
  // Without a final newline, an empty last line would not exist as a line.
  const last = lines[lines.length - 1];
  if (!finalNewline && last.blank && last.text === '') lines[lines.length - 1] = { blank: true, text: ' ' };
  return lines;
}

const textOf = (l: FileLine): string => (l.blank ? l.text : l.indent + l.body);

function joinFile(lines: readonly string[], eol: string, bom: boolean, finalNewline: boolean): string {
  const body = lines.join(eol) + (finalNewline && lines.length > 0 ? eol : '');
  return (bom ? '\uFEFF' : '') + body;
}

/** How a file line may be written in SEARCH (rule 1): indentation dropped or changed, trailing blanks, a prefix. */
function searchForm(l: FileLine, v: number): string {
  if (l.blank) return ['', ' ', '\t  '][v % 3];
  const idLength = l.body.indexOf(':') + 1;
  switch (v % 5) {
    case 0:
      return l.indent + l.body;
    case 1:
      return l.body;
    case 2:
      return ' '.repeat(v % 3) + '\t'.repeat((v >> 2) % 2) + l.body;
    case 3:
      return `${l.indent + l.body} \t`;
    default:
      return l.indent + l.body.slice(0, idLength + ((v >> 3) % (l.body.length - idLength + 1)));
  }
}

interface PlannedBlock {
  start: number;
  end: number;
  search: string[];
  replace: string[];
  skipped: number[];
}

const hasContent = (lines: readonly FileLine[], a: number, b: number): boolean =>
  lines.slice(a, b).some((l) => !l.blank);

/** Picks disjoint ranges (touching allowed) that hold a non-blank line, and writes a block for each. */
function planBlocks(s: Scenario, lines: readonly FileLine[]): PlannedBlock[] {
  const n = lines.length;
  const cuts = s.cuts.map((c) => c % (n + 1)).sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (let k = 0; k + 1 < cuts.length; k += 2) {
    if (cuts[k] < cuts[k + 1] && hasContent(lines, cuts[k], cuts[k + 1])) ranges.push([cuts[k], cuts[k + 1]]);
  }
  if (ranges.length === 0) ranges.push([0, n]);
  return ranges.slice(0, 4).map(([a, b], r) => {
    const form = (i: number) => searchForm(lines[i], s.variants[i]);
    const seed = s.skipSeeds[r];
    const len = b - a;
    const plain = {
      start: a,
      end: b - 1,
      search: Array.from({ length: len }, (_, k) => form(a + k)),
      replace: s.replacements[r],
      skipped: [] as number[],
    };
    if (len < 2 || seed % 3 === 0) return plain;
    // SKIP: keep a head, optionally a middle, and a tail, each holding a non-blank (unique) line.
    const head = 1 + (seed % (len - 1));
    const tail = 1 + ((seed >> 4) % (len - head));
    const gapEnd = b - tail;
    if (!hasContent(lines, a, a + head) || !hasContent(lines, gapEnd, b)) return plain;
    const segments: [number, number][] = [[a, a + head]];
    const midLen = (seed >> 8) % 3;
    const midStart = a + head + ((seed >> 10) % Math.max(1, gapEnd - (a + head)));
    if (midLen > 0 && midStart + midLen <= gapEnd && hasContent(lines, midStart, midStart + midLen)) {
      segments.push([midStart, midStart + midLen]);
    }
    segments.push([gapEnd, b]);
    const search: string[] = [];
    const skipped: number[] = [];
    segments.forEach(([x, y], k) => {
      if (k > 0) {
        search.push('....... SKIP');
        skipped.push(x - segments[k - 1][1]);
      }
      for (let i = x; i < y; i++) search.push(form(i));
    });
    return { ...plain, search, skipped };
  });
}

function diffText(blocks: readonly PlannedBlock[], order: readonly number[], eol: string): string {
  const sorted = blocks.map((b, k) => ({ b, key: order[k] })).sort((x, y) => x.key - y.key);
  const parts = ['Apply these edits:'];
  for (const { b } of sorted)
    parts.push('------- SEARCH', ...b.search, '=======', ...b.replace, '+++++++ REPLACE');
  return parts.join(eol) + eol;
}

describe('round trip', () => {
  it('applying a diff built from unique ranges gives exactly the intended file, in every byte variant', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const lines = buildLines(s.shapes, s.finalNewline);
        const texts = lines.map(textOf);
        const blocks = planBlocks(s, lines);
        const before = joinFile(texts, s.eol, s.bom, s.finalNewline);

        const after: string[] = [];
        const newStart = new Map<PlannedBlock, number>();
        let i = 0;
        for (const b of [...blocks].sort((x, y) => x.start - y.start)) {
          after.push(...texts.slice(i, b.start));
          newStart.set(b, after.length + 1);
          after.push(...b.replace);
          i = b.end + 1;
        }
        after.push(...texts.slice(i));

        const r = replaceInFile(before, diffText(blocks, s.order, s.diffEol));
        if (!r.ok) throw new Error(r.error);
        // A file without any line break gives no line ending to follow: LF is written.
        const eol = lines.length > 1 || s.finalNewline ? s.eol : '\n';
        expect(r.content).toBe(joinFile(after, eol, s.bom, s.finalNewline));
        expect(r.blocks).toEqual(
          blocks
            .map((b, k) => ({
              block: [...blocks.keys()].sort((x, y) => s.order[x] - s.order[y]).indexOf(k) + 1,
              original: { start: b.start + 1, end: b.end + 1 },
              replaced: { start: newStart.get(b)!, end: newStart.get(b)! + b.replace.length - 1 },
              skipped: b.skipped,
            }))
            .sort((x, y) => x.block - y.block),
        );
      }),
      RUNS,
    );
  });

  it('a block whose lines occur twice is refused with both places and no content', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const lines = buildLines(s.shapes, true);
        const texts = lines.map(textOf);
        const [b] = planBlocks(s, lines);
        const plain = { ...b, search: texts.slice(b.start, b.end + 1) };
        const file = joinFile([...texts, ...texts], s.eol, s.bom, true);
        const r = replaceInFile(file, diffText([plain], [0], s.diffEol));
        expect(r.ok).toBe(false);
        expect(r).not.toHaveProperty('content');
        expect(r).toMatchObject({ block: 1, candidates: [b.start + 1, b.start + lines.length + 1] });
      }),
      RUNS,
    );
  });
});

// ---------- against a direct implementation of the rules ----------

/** Rule 1, written out: trimmed SEARCH line vs left-trimmed file line, prefix, blank only for blank. */
function refLineMatches(search: string, file: string): boolean {
  const s = search.replace(/^[ \t]+/, '').replace(/[ \t]+$/, '');
  const f = file.replace(/^[ \t]+/, '');
  return s === '' ? f === '' : f.startsWith(s);
}

function refSegmentAt(file: readonly string[], seg: readonly string[], at: number): boolean {
  if (at + seg.length > file.length) return false;
  return seg.every((s, k) => refLineMatches(s, file[at + k]));
}

type RefMatch =
  | { kind: 'unique'; start: number; end: number }
  | { kind: 'ambiguous'; heads: number[] }
  | { kind: 'refused' };

/** Rules 2 and 4 by brute force: every head position, nearest following match of each segment. */
function refMatch(file: readonly string[], search: readonly string[]): RefMatch {
  const segments: string[][] = [[]];
  for (const line of search) {
    if (line.replace(/[ \t]+$/, '') === '....... SKIP') segments.push([]);
    else segments[segments.length - 1].push(line);
  }
  if (search.length === 0 || segments[0].length === 0 || segments[segments.length - 1].length === 0) {
    return { kind: 'refused' };
  }
  const found: { start: number; end: number }[] = [];
  for (let h = 0; h < file.length; h++) {
    if (!refSegmentAt(file, segments[0], h)) continue;
    let next = h + segments[0].length;
    let ok = true;
    for (const seg of segments.slice(1)) {
      let p = next;
      while (p <= file.length && !(seg.length === 0 || refSegmentAt(file, seg, p))) p++;
      if (p > file.length) {
        ok = false;
        break;
      }
      next = p + seg.length;
    }
    if (ok) found.push({ start: h, end: next - 1 });
  }
  if (found.length === 1) return { kind: 'unique', ...found[0] };
  if (found.length > 1) return { kind: 'ambiguous', heads: found.map((f) => f.start + 1) };
  return { kind: 'refused' };
}

const tinyLine = fc.constantFrom('a', 'ab', ' a', '\tab', 'a b', 'b', '}', '', ' ', '\t');
const tinySearchLine = fc.oneof(
  { weight: 6, arbitrary: tinyLine },
  { weight: 1, arbitrary: fc.constantFrom('a ', '  b\t', '....... SKIP', '....... SKIP ') },
);
const tinyBlock = fc.record({
  /** Whether SEARCH is taken from the file (then reshaped) or made up. */
  fromFile: fc.boolean(),
  at: fc.nat(),
  length: fc.integer({ min: 1, max: 5 }),
  skipAt: fc.nat(),
  skip: fc.boolean(),
  reshape: fc.array(fc.nat(3), { minLength: 5, maxLength: 5 }),
  madeUp: fc.array(tinySearchLine, { maxLength: 5 }),
  replace: fc.array(fc.constantFrom('X', '', '  Y', '======='), { maxLength: 3 }),
});

type TinyBlock = typeof tinyBlock extends fc.Arbitrary<infer T> ? T : never;

/** A block's SEARCH lines: made up, or file lines with indentation changed and maybe one turned into SKIP. */
function tinySearch(file: readonly string[], b: TinyBlock): string[] {
  if (!b.fromFile || file.length === 0) return b.madeUp;
  const at = b.at % file.length;
  const lines = file.slice(at, at + b.length).map((l, k) => {
    const v = b.reshape[k];
    return v === 1 ? l.trimStart() : v === 2 ? `\t${l}` : v === 3 ? `${l} ` : l;
  });
  if (b.skip && lines.length >= 3) lines[1 + (b.skipAt % (lines.length - 2))] = '....... SKIP';
  return lines;
}

describe('agrees with a direct implementation of the rules', () => {
  it('on small files full of repeated, blank and prefix-sharing lines', () => {
    fc.assert(
      fc.property(
        fc.array(tinyLine, { maxLength: 14 }),
        fc.array(tinyBlock, { minLength: 1, maxLength: 3 }),
        (file, blocks) => {
          const searches = blocks.map((b) => tinySearch(file, b));
          const d = blocks
            .map((b, k) =>
              ['------- SEARCH', ...searches[k], '=======', ...b.replace, '+++++++ REPLACE'].join('\n'),
            )
            .join('\n');
          const r = replaceInFile(file.length === 0 ? '' : `${file.join('\n')}\n`, d);
          const matches = searches.map((s) => refMatch(file, s));
          const failed = matches.findIndex((m) => m.kind !== 'unique');
          if (failed >= 0) {
            expect(r.ok).toBe(false);
            expect(r).toHaveProperty('block', failed + 1);
            const m = matches[failed];
            if (m.kind === 'ambiguous') expect(r).toHaveProperty('candidates', m.heads);
            return;
          }
          const ranges = matches.map((m, k) => ({ ...(m as { start: number; end: number }), k }));
          ranges.sort((x, y) => x.start - y.start || x.k - y.k);
          const overlap = ranges.some((x, i) => i > 0 && x.start <= ranges[i - 1].end);
          if (overlap) {
            expect(r.ok).toBe(false);
            if (!r.ok) expect(r.error).toContain('overlap');
            return;
          }
          const out: string[] = [];
          let i = 0;
          for (const x of ranges) {
            out.push(...file.slice(i, x.start), ...blocks[x.k].replace);
            i = x.end + 1;
          }
          out.push(...file.slice(i));
          if (!r.ok) throw new Error(r.error);
          expect(r.content).toBe(out.length === 0 ? '' : `${out.join('\n')}\n`);
        },
      ),
      RUNS,
    );
  });
});

// ---------- the file scan ----------

/**
 * Lines of a text by plain splitting, under the rule of line_endings.ts: BOM dropped; `\r\n` and
 * `\n` end lines, and so does a lone `\r` where lone CRs are most of the breaks; no line after a
 * final break.
 */
function refLines(text: string): string[] {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (body === '') return [];
  const count = (re: RegExp) => (text.match(re) ?? []).length;
  const [crlf, lf, cr] = [count(/\r\n/g), count(/(?<!\r)\n/g), count(/\r(?!\n)/g)];
  const parts = body.split(cr > lf && cr > crlf ? /\r\n|\r|\n/ : /\r?\n/);
  if (parts[parts.length - 1] === '') parts.pop();
  return parts;
}

describe('scanFile', () => {
  it('indexes lines and finds anchors exactly as plain splitting would, whatever the chunk size', () => {
    const scanLine = fc.constantFrom('a', 'ab', ' a', '\tab b', 'ba', '', ' ', 'a\r', '\r', 'x-a');
    const anchor = fc.constantFrom('a', 'ab', 'b', 'ab b', 'x-', '-a', 'a\r', 'zz');
    fc.assert(
      fc.property(
        fc.array(scanLine, { maxLength: 12 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.boolean(),
        fc.boolean(),
        fc.array(anchor, { maxLength: 4 }),
        fc.integer({ min: 1, max: 40 }),
        (ls, eol, bom, finalBreak, anchors, chunk) => {
          const text = (bom ? '\uFEFF' : '') + ls.join(eol) + (finalBreak && ls.length > 0 ? eol : '');
          const { ix, hits } = scanFile(text, anchors, chunk);
          const lines = refLines(text);
          expect(ix.count).toBe(lines.length);
          expect(indexFile(text)).toEqual(ix);
          for (let i = 0; i < lines.length; i++) {
            expect(lineMatches(ix, i, lines[i].replace(/^[ \t]+/, ''))).toBe(true);
          }
          for (const a of anchors) {
            const expected = lines.flatMap((l, i) => (l.replace(/^[ \t]+/, '').startsWith(a) ? [i] : []));
            expect(hits.get(a)).toEqual(expected);
          }
        },
      ),
      RUNS,
    );
  });
});
