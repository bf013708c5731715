import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { passThroughSchema } from '../../src/mcp/external_tool.js';
import { MAX_TOOL_NAME, mcpToolName, uniqueToolNames } from '../../src/mcp/names.js';
import { mapCallResult, mapResourceContents } from '../../src/mcp/results.js';

describe('MCP tool names', () => {
  it('joins server and tool with a double underscore', () => {
    expect(mcpToolName('github', 'create_issue')).toBe('github__create_issue');
  });

  it('replaces characters outside [A-Za-z0-9_-]', () => {
    expect(mcpToolName('my server', 'weather.lookup/v2')).toBe('my_server__weather_lookup_v2');
  });

  it('cuts names over 64 characters and ends them in a stable hash', () => {
    const long = `tool_${'x'.repeat(80)}`;
    const name = mcpToolName('server', long);
    expect(name).toHaveLength(MAX_TOOL_NAME);
    expect(name).toMatch(/^server__tool_x+_[0-9a-f]{6}$/);
    expect(mcpToolName('server', long)).toBe(name);
    expect(mcpToolName('server', `${long}y`)).not.toBe(name);
  });

  it('gives a hash suffix to names that collide after sanitising', () => {
    const names = uniqueToolNames('s', ['a.b', 'a_b'], new Set());
    expect(names[0]).toBe('s__a_b');
    expect(names[1]).toMatch(/^s__a_b_[0-9a-f]{6}$/);
  });
});

describe('MCP results', () => {
  it('joins text blocks', () => {
    expect(
      mapCallResult({
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }),
    ).toEqual({ text: 'a\nb' });
  });

  it('turns images into image blocks with a placeholder in the text', () => {
    const out = mapCallResult({ content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] });
    expect(out.images).toEqual([{ mediaType: 'image/png', data: 'AAAA' }]);
    expect(out.text).toBe('[image image/png attached]');
  });

  it('shows embedded text resources and names resource links', () => {
    const out = mapCallResult({
      content: [
        { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'hello' } },
        { type: 'resource', resource: { uri: 'file:///b.bin', mimeType: 'application/zip', blob: 'AAAA' } },
        { type: 'resource_link', uri: 'demo://x', name: 'x', mimeType: 'text/plain' },
      ],
    });
    expect(out.text).toContain('[resource file:///a.txt (text/plain)]\nhello');
    expect(out.text).toContain('binary, 3 bytes; not shown');
    expect(out.text).toContain('[resource link x demo://x (text/plain): read it with access_mcp_resource]');
  });

  it('keeps isError and structured content', () => {
    const out = mapCallResult({ content: [], structuredContent: { t: 21 }, isError: true });
    expect(out.isError).toBe(true);
    expect(out.data).toEqual({ t: 21 });
    expect(JSON.parse(out.text)).toEqual({ t: 21 });
  });

  it('says so when a tool returns nothing', () => {
    expect(mapCallResult({ content: [] }).text).toBe('(the tool returned no content)');
  });

  it('maps read resources, image blobs included', () => {
    const out = mapResourceContents([
      { uri: 'a://1', text: 'one' },
      { uri: 'a://2', mimeType: 'image/png', blob: 'AAAA' },
    ]);
    expect(out.text).toContain('[resource a://1]\none');
    expect(out.images).toEqual([{ mediaType: 'image/png', data: 'AAAA' }]);
  });
});

describe('MCP input schemas', () => {
  const original = {
    type: 'object',
    properties: { a: { type: 'number', description: 'first' } },
    required: ['a'],
    additionalProperties: false,
  };

  it('passes the server’s JSON Schema through unchanged', () => {
    const { $schema: _drop, ...schema } = z.toJSONSchema(passThroughSchema(original), {
      io: 'input',
    }) as Record<string, unknown>;
    expect(schema).toEqual(original);
  });

  it('accepts any object and refuses other values (the server validates the rest)', () => {
    const schema = passThroughSchema(original);
    expect(schema.safeParse({ b: 1 }).success).toBe(true);
    expect(schema.safeParse([1]).success).toBe(false);
    expect(schema.safeParse('x').success).toBe(false);
  });

  it('fills in type object when a server leaves it out', () => {
    const json = z.toJSONSchema(passThroughSchema({}), { io: 'input' }) as Record<string, unknown>;
    expect(json).toMatchObject({ type: 'object', properties: {} });
  });
});
