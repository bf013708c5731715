import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonc } from '../../src/config/jsonc.js';

const value = (text: string) => {
  const result = parseJsonc(text);
  if (!result.ok) throw new Error(`${result.error.line}:${result.error.column}: ${result.error.message}`);
  return result.value;
};
const error = (text: string) => {
  const result = parseJsonc(text);
  if (result.ok) throw new Error('parsed');
  return result.error;
};

describe('parseJsonc', () => {
  it('reads line and block comments, trailing commas and a byte-order mark', () => {
    const text = [
      '\uFEFF// settings',
      '{',
      '  /* the model */ "model": "a/b",',
      '  "permissions": { "deny": ["read_file(**/.env)", ], }, // trailing',
      '}',
    ].join('\n');
    expect(value(text)).toEqual({ model: 'a/b', permissions: { deny: ['read_file(**/.env)'] } });
  });

  it('keeps comment markers and commas inside strings', () => {
    expect(value('{ "url": "http://x/*y*/", "s": "a,}" }')).toEqual({ url: 'http://x/*y*/', s: 'a,}' });
  });

  it('reads escapes, numbers and literals as JSON does', () => {
    const text = '{ "a": "q\\"\\u00e9\\n", "n": -1.5e3, "t": true, "f": false, "z": null, "l": [0, 1] }';
    expect(value(text)).toEqual(JSON.parse(text));
  });

  it('keeps a "__proto__" key as data, as JSON.parse does', () => {
    const parsed = value('{ "__proto__": { "polluted": true } }') as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('says where a missing comma is, by line and column', () =>
    expect(error('{\n  "a": 1\n  "b": 2\n}')).toEqual({
      message: 'expected , or } after "a"',
      line: 3,
      column: 3,
    }));

  it('names a file that ends too soon, an unclosed comment and a raw line break in a string', () => {
    expect(error('{ "a": [1, 2')).toMatchObject({ message: 'the file ends inside a list', line: 1 });
    expect(error('{ /* open\n')).toMatchObject({
      message: 'a /* comment is never closed',
      line: 1,
      column: 3,
    });
    expect(error('{ "a": "x\ny" }')).toMatchObject({ line: 1, column: 10 });
  });

  it('refuses two commas, text after the value and an empty document', () => {
    expect(error('[1,,2]').message).toBe('unexpected "," where a value was expected');
    expect(error('{} x')).toMatchObject({ message: 'unexpected text after the end of the value', column: 4 });
    expect(error('  ').message).toBe('the file ends where a value was expected');
  });

  // [text, what is wrong, line, column]: each error of jsonc-parser at its place as written.
  const PLACES: Array<[string, string, number, number]> = [
    ['{\n  "a": [\n    1\n    2\n  ]\n}', 'expected , or ] after a list item', 4, 5],
    ['{\n  "outer": { "inner": 1 "next": 2 }\n}', 'expected , or } after "inner"', 2, 25],
    ['{\r\n  "a" 1\r\n}', 'expected : after the property name "a"', 2, 7],
    ['\uFEFF{\n  "a": tru\n}', 'unexpected "tru" where a value was expected', 2, 8],
    ['{ "a": 1 }\n// done\n}', 'unexpected text after the end of the value', 3, 1],
    ["{ 'a': 1 }", 'expected a "quoted" property name or }', 1, 3],
    ['{\n  "a": "\\q"\n}', 'a string holds an invalid \\ escape', 2, 8],
    ['{\n  "a": "x', 'a string is never closed', 2, 8],
    ['{ "a": 1. }', '"1." is not a number', 1, 8],
  ];

  it.each(PLACES)('places the error in %j: %s at %i:%i', (text, message, line, column) =>
    expect(error(text)).toEqual({ message, line, column }),
  );

  it('reads whatever JSON.stringify writes, as JSON.parse does', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (json) => {
        const text = JSON.stringify(json, null, 2);
        expect(value(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });
});
