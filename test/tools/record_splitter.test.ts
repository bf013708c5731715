// A program's output cut into records: records and characters split across chunks, an early
// stop, records refused before they are decoded, and a real program's long listing.
import { describe, expect, it } from 'vitest';
import { RecordSplitter } from '../../src/tools/search/record_splitter.js';
import { streamRecords } from '../../src/tools/search/stream_records.js';

/** Feeds `bytes` to a splitter in chunks of `size` bytes; the records it handed on. */
function split(bytes: Buffer, size: number, options: { stopAfter?: number; select?: string } = {}) {
  const records: string[] = [];
  const select = options.select;
  const splitter = new RecordSplitter(
    0,
    (record) => {
      records.push(record);
      return options.stopAfter === undefined || records.length < options.stopAfter;
    },
    select ? (b, start, end) => b.toString('utf8', start, end).startsWith(select) : undefined,
  );
  let going = true;
  for (let at = 0; going && at < bytes.length; at += size)
    going = splitter.push(bytes.subarray(at, at + size));
  if (going) splitter.end();
  return records;
}

const names = ['a.ts', 'dossier/été.md', '', '日本語/ファイル.txt', 'emoji/😀.json', 'z'];

describe('RecordSplitter', () => {
  it('gives the same records whatever the chunk size, characters cut between chunks included', () => {
    const bytes = Buffer.from(`${names.join('\0')}\0`);
    for (let size = 1; size <= bytes.length; size++) expect(split(bytes, size)).toEqual(names);
  });

  it('hands on a last record that has no separator', () => {
    const bytes = Buffer.from(names.join('\0'));
    for (const size of [1, 3, 7, bytes.length]) expect(split(bytes, size)).toEqual(names);
  });

  it('takes no more once asked to stop', () => {
    const bytes = Buffer.from(`${names.join('\0')}\0`);
    for (const size of [1, 5, bytes.length])
      expect(split(bytes, size, { stopAfter: 2 })).toEqual(names.slice(0, 2));
  });

  it('leaves out the records the byte-level selection refuses', () => {
    const bytes = Buffer.from(`${names.join('\0')}\0`);
    for (const size of [1, 4, bytes.length])
      expect(split(bytes, size, { select: 'd' })).toEqual(['dossier/été.md']);
  });
});

describe('streamRecords', () => {
  it("reads a program's listing of 100,000 names with characters of every width, line by line", async () => {
    const expected = Array.from({ length: 100_000 }, (_, i) => `dir${i % 97}/é日😀${i}`);
    const program = `process.stdout.write(Array.from({length:100000},(_,i)=>'dir'+(i%97)+'/é日😀'+i).join('\\n'))`;
    const records: string[] = [];
    const run = await streamRecords(
      [process.execPath, '-e', program],
      { cwd: process.cwd(), separator: 10 },
      (record) => void records.push(record),
    );
    expect(run.code).toBe(0);
    expect(records).toEqual(expected);
  });
});
