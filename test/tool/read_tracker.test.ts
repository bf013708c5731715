import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/edit/content_hash.js';
import { ReadTracker } from '../../src/tool/read_tracker.js';
import { tempDir } from '../support/runtime_fixtures.js';

describe('ReadTracker', () => {
  it('says a file never seen is unread', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.txt'), 'one\n');
    expect(new ReadTracker().check(join(dir, 'a.txt'), sha256('one\n'))).toBe('unread');
  });

  it('says a file is current while it holds what was seen, and changed once it does not', () => {
    const dir = tempDir();
    const file = join(dir, 'a.txt');
    writeFileSync(file, 'one\n');
    const reads = new ReadTracker();
    reads.saw(file, Buffer.from('one\n'));
    expect(reads.check(file, sha256('one\n'))).toBe('current');
    expect(reads.check(file, sha256('two\n'))).toBe('changed');
  });

  it('knows a file reached through a symbolic link as the same file', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'real.txt'), 'one\n');
    symlinkSync(join(dir, 'real.txt'), join(dir, 'link.txt'));
    const reads = new ReadTracker();
    reads.sawHash(join(dir, 'link.txt'), sha256('one\n'));
    expect(reads.check(join(dir, 'real.txt'), sha256('one\n'))).toBe('current');
  });
});
