import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTool, DEFAULT_RESULT_CHARS } from '../../src/tool/build_tool.js';
import { defaultConditions } from '../../src/tool/conditions.js';
import { NO_FACTS } from '../../src/tool/facts.js';

const minimal = buildTool({
  name: 'minimal',
  inputSchema: z.object({ x: z.number() }),
  description: 'A tool that defines only what it must.',
  availability: { profiles: ['standard'] },
  kind: 'other',
  async call() {
    return { text: 'ok' };
  },
});

describe('buildTool defaults', () => {
  it('is enabled', () => expect(minimal.isEnabled(defaultConditions())).toBe(true));
  it('is not read-only', () => expect(minimal.isReadOnly({ x: 1 }, NO_FACTS)).toBe(false));
  it('is not concurrency-safe', () => expect(minimal.isConcurrencySafe({ x: 1 }, NO_FACTS)).toBe(false));
  it('is not destructive', () => expect(minimal.isDestructive({ x: 1 }, NO_FACTS)).toBe(false));
  it('allows in its own permission check', async () =>
    expect(await minimal.checkPermissions({ x: 1 }, {} as never)).toEqual({ behavior: 'allow' }));
  it("gives '' to the auto classifier", () => expect(minimal.toAutoClassifierInput({ x: 1 })).toBe(''));
  it('shows its name to users', () => expect(minimal.userFacingName({ x: 1 })).toBe('minimal'));
  it('has no aliases', () => expect(minimal.aliases).toEqual([]));
  it('uses the default result budget', () => expect(minimal.maxResultChars).toBe(DEFAULT_RESULT_CHARS));
  it('uses the Standard description for Lite when none is given', () =>
    expect(minimal.liteDescription).toBe(minimal.description));
  it('has nothing for the permission engine to check', () =>
    expect(minimal.permissionSubject({ x: 1 }, {} as never, NO_FACTS)).toEqual({ kind: 'none' }));
  it('is built-in unless said otherwise', () => expect(minimal.source).toBe('builtin'));
});

describe('buildTool keeps what a definition gives', () => {
  const full = buildTool({
    name: 'full',
    aliases: ['old_full'],
    inputSchema: z.object({ cmd: z.string() }),
    description: 'Standard text',
    liteDescription: 'Lite text',
    availability: { profiles: ['standard', 'lite'] },
    kind: 'other',
    maxResultChars: 123,
    isReadOnly: (input) => input.cmd === 'ls',
    isConcurrencySafe: (input) => input.cmd === 'ls',
    isDestructive: () => true,
    userFacingName: () => 'Full Tool',
    async call() {
      return { text: '' };
    },
  });
  it('keeps a dynamic read-only answer', () => {
    expect(full.isReadOnly({ cmd: 'ls' }, NO_FACTS)).toBe(true);
    expect(full.isReadOnly({ cmd: 'rm' }, NO_FACTS)).toBe(false);
  });
  it('keeps aliases, lite text, budget and name', () => {
    expect(full.aliases).toEqual(['old_full']);
    expect(full.liteDescription).toBe('Lite text');
    expect(full.maxResultChars).toBe(123);
    expect(full.userFacingName(undefined)).toBe('Full Tool');
    expect(full.isDestructive({ cmd: 'x' }, NO_FACTS)).toBe(true);
  });
});
