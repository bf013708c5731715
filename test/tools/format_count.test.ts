import { describe, expect, it } from 'vitest';
import { formatCount } from '../../src/tools/shared/paths.js';

describe('formatCount', () => {
  it('writes counts with thousands separators, as en-US does', () => {
    for (const n of [0, 7, 999, 1_000, 12_345, 1_000_000, 2_147_483_647, -1_234])
      expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
  });

  it('leaves a number that is not a whole count as it is', () => {
    expect(formatCount(2.5)).toBe('2.5');
  });
});
