import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readPlainYaml } from '../../../src/config/agent_types/plain_yaml.js';

/** Frontmatter the fast reader takes: each must read exactly as the YAML parser reads it. */
const TAKEN = [
  '',
  'name: review\ndescription: Reviews a change; use it before merging.\n',
  'name: skill-1\nallowed-tools: Bash(make task-1:*) Read\nmetadata:\n  version: "1.0"\n  owner: team\n',
  'description: \'single quoted: with a colon\'\nname: "double # quoted"\n',
  '# a comment line\nname: x\n\npaths:\n  - src/**/*.ts\n  - "lib/*.js"\n',
  'empty:\nname: a\\b C:/path x:y [not] a {flow}\n',
  'description: Use "quotes" and (brackets) inside, 100% fine!\n',
  'tags:\n    - one\n    - two\n',
  'true-ish: yes-and-no\nnameless-value: trailing spaces   \n',
  'paths: ["src/mod4/**/*.ts", "*.py"]\nglobs: [a/b, \'c,d\',e]\nnone: []\n',
  'paths: [ "x" ,y ]',
];

/** Frontmatter it leaves to the YAML parser, because YAML may read it as something other than text. */
const LEFT = [
  'version: 1.0',
  'enabled: true',
  'enabled: False',
  'value: null',
  'value: ~',
  'count: -3',
  'at: .5',
  'name: x # comment',
  'name: a: b',
  'list: [1, b]',
  'list: [a: b]',
  'list: [a, [b]]',
  'list: [a, ]',
  'list: ["a", b c # d]',
  'map: {a: 1}',
  'block: |\n  text',
  'folded: >\n  text',
  'anchor: &a x',
  'alias: *a',
  'tag: !!str 5',
  'escaped: "a\\nb"',
  "doubled: 'it''s'",
  'name: a\nname: b',
  'name: first\n  continued on the next line',
  'list:\n- at the key indent',
  'deep:\n  inner:\n    x: y',
  'mixed:\n  - a\n  b: c',
  'uneven:\n  - a\n    - b',
  'tab:\tx',
  '__proto__: x',
  'key:value',
  '"quoted key": x',
  '  # an indented comment',
];

describe('plain frontmatter read without the YAML parser', () => {
  it.each(TAKEN)('reads %j exactly as YAML does', (text) => {
    const fast = readPlainYaml(text);
    expect(fast).toBeDefined();
    expect(fast).toEqual(parse(text) ?? {});
  });

  it.each(LEFT)('leaves %j to the YAML parser', (text) => {
    expect(readPlainYaml(text)).toBeUndefined();
  });
});
