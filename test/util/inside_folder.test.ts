import { describe, expect, it } from 'vitest';
import { isInside, leavesFolder, pathInside } from '../../src/util/inside_folder.js';

describe('a relative path leaves its folder only through a `..` segment', () => {
  it.each(['..', '../x', '../../a/b', '/abs'])('%s leaves', (rel) => expect(leavesFolder(rel)).toBe(true));
  it.each(['', 'a', '..notes', '...', '..foo/bar', 'a/..b', '.env'])('%s stays inside', (rel) =>
    expect(leavesFolder(rel)).toBe(false),
  );
  it('isInside holds for names that start with two dots', () => {
    expect(isInside('/w/..notes', '/w')).toBe(true);
    expect(isInside('/w/...', '/w')).toBe(true);
    expect(isInside('/w/..foo/bar', '/w')).toBe(true);
    expect(isInside('/w', '/w')).toBe(true);
    expect(isInside('/other', '/w')).toBe(false);
    expect(isInside('/w2/x', '/w')).toBe(false);
  });
  it('pathInside gives the relative path strictly inside, else nothing', () => {
    expect(pathInside('/w/..notes', '/w')).toBe('..notes');
    expect(pathInside('/w', '/w')).toBeUndefined();
    expect(pathInside('/x/a', '/w')).toBeUndefined();
  });
});
