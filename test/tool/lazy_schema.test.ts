import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deriveJsonSchema } from '../../src/tool/definition.js';
import { isLazySchema, lazySchema } from '../../src/tool/lazy_schema.js';
import { builtinTools } from '../../src/tools/index.js';

describe('lazySchema', () => {
  it('builds the schema at its first use, once, and is that schema to zod', () => {
    let builds = 0;
    const schema = lazySchema(() => {
      builds++;
      return z.strictObject({
        path: z.string().min(1).describe('A file'),
        items: z.array(z.strictObject({ id: z.number().int() })).optional(),
      });
    });
    expect(builds).toBe(0);
    expect(isLazySchema(schema)).toBe(true);
    expect(schema.safeParse({ path: 'a', items: [{ id: 1 }] }).success).toBe(true);
    const refused = schema.safeParse({ path: '', extra: 1 });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => issue.code).sort()).toEqual([
      'too_small',
      'unrecognized_keys',
    ]);
    expect(schema).toBeInstanceOf(z.ZodObject);
    expect(Object.keys(schema.shape)).toEqual(['path', 'items']);
    const wrapped = z.strictObject({ inner: schema });
    expect(wrapped.safeParse({ inner: { path: 'b' } }).success).toBe(true);
    expect(z.toJSONSchema(schema, { io: 'input' })).toEqual(
      z.toJSONSchema(
        z.strictObject({
          path: z.string().min(1).describe('A file'),
          items: z.array(z.strictObject({ id: z.number().int() })).optional(),
        }),
        { io: 'input' },
      ),
    );
    expect(builds).toBe(1);
    expect(isLazySchema(z.string())).toBe(false);
  });
});

describe("the build's JSON Schemas", () => {
  it('are what each built-in lazy schema derives, and only those', () => {
    const fromBuild = JSON.parse(
      readFileSync(new URL('../../dist/tool-schemas.json', import.meta.url), 'utf8'),
    ) as Record<string, unknown>;
    const lazy = builtinTools().filter((tool) => isLazySchema(tool.inputSchema));
    expect(Object.keys(fromBuild).sort()).toEqual(lazy.map((tool) => tool.name).sort());
    // Only the schemas that depend on settings (the subagent types) are built at run time.
    expect(
      builtinTools()
        .filter((tool) => !isLazySchema(tool.inputSchema))
        .map((tool) => tool.name),
    ).toEqual(['use_subagent', 'use_subagents']);
    for (const tool of lazy) expect(fromBuild[tool.name], tool.name).toEqual(deriveJsonSchema(tool));
  });

  it('leaves out the bounds zod gives every integer, which tell a model nothing', () => {
    const schemas = builtinTools().map((tool) => JSON.stringify(deriveJsonSchema(tool)));
    expect(schemas.filter((text) => text.includes(String(Number.MAX_SAFE_INTEGER)))).toEqual([]);
    const offset = JSON.parse(schemas[builtinTools().findIndex((t) => t.name === 'search_files')]).properties
      .offset;
    expect(offset).toMatchObject({ type: 'integer', minimum: 0 });
    expect(offset.maximum).toBeUndefined();
  });
});
