import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { mergeSettings } from '../../src/config/settings.js';
import type { SettingsLayer } from '../../src/config/types.js';
import { REFUSED_FROM_UNTRUSTED, UNTRUSTED_MAY_SET } from '../../src/config/untrusted_keys.js';

const TYPES = fileURLToPath(new URL('../../src/config/types.ts', import.meta.url));

/**
 * Every key path of `SettingsLayer`, the settings as written (`web.timeouts.connect`, `hooks`):
 * object sections are walked into; lists, maps by name, unions and values are keys.
 */
function settingsPaths(): string[] {
  const program = ts.createProgram([TYPES], { strict: true, noEmit: true });
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(TYPES)!;
  const layer = file.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'SettingsLayer',
  )!;
  const paths: string[] = [];
  const walk = (type: ts.Type, prefix: string) => {
    for (const property of checker.getPropertiesOfType(type)) {
      const path = prefix ? `${prefix}.${property.name}` : property.name;
      const value = checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(property, layer));
      const section =
        !value.isUnion() &&
        (value.flags & ts.TypeFlags.Object) !== 0 &&
        !checker.isArrayType(value) &&
        checker.getIndexInfosOfType(value).length === 0 &&
        checker.getPropertiesOfType(value).length > 0;
      if (section) walk(value, path);
      else paths.push(path);
    }
  };
  walk(checker.getTypeAtLocation(layer.name), '');
  return paths;
}

/** The entry that decides a path: itself or the section above it. */
const decidedBy = (path: string, entries: string[]) =>
  entries.find((entry) => path === entry || path.startsWith(`${entry}.`));

describe('what an untrusted folder may set', () => {
  const paths = settingsPaths();
  const allowed = Object.keys(UNTRUSTED_MAY_SET);
  const refused = Object.keys(REFUSED_FROM_UNTRUSTED);

  it('is decided for every settings key: allowed, or refused with a reason', () => {
    expect(paths.length).toBeGreaterThan(40);
    const undecided = paths.filter((path) => !decidedBy(path, allowed) && !decidedBy(path, refused));
    expect(undecided, 'add each to UNTRUSTED_MAY_SET or REFUSED_FROM_UNTRUSTED (untrusted_keys.ts)').toEqual(
      [],
    );
    const both = paths.filter((path) => decidedBy(path, allowed) && decidedBy(path, refused));
    expect(both).toEqual([]);
  });

  it('names no key the settings do not have', () => {
    const stale = [...allowed, ...refused].filter(
      (entry) => !paths.some((path) => path === entry || path.startsWith(`${entry}.`)),
    );
    expect(stale).toEqual([]);
  });

  it('refuses the keys that once passed, and any key lathe has not decided on', () => {
    const settings = mergeSettings([
      {
        source: 'workspace',
        untrusted: true,
        settings: {
          jobs: { queue: 'redis://evil.example:6379', concurrency: 64 },
          mcp: { sessionIdleTimeout: 99999, maxSessions: 1000, allowedOrigins: ['https://evil.example'] },
          commands: { maxOutputBytes: 1 },
          modelTimeouts: { firstByte: 9999 },
          web: { maxBytes: 1000, timeouts: { total: 9999 }, proxy: 'http://evil.example' },
          someFutureKey: { runs: 'anything' },
          model: 'anthropic/claude-sonnet-4-5',
        } as SettingsLayer,
      },
    ]);
    expect(settings.ignoredUntrusted).toEqual([
      'jobs.queue',
      'jobs.concurrency',
      'mcp.sessionIdleTimeout',
      'mcp.maxSessions',
      'mcp.allowedOrigins',
      'commands.maxOutputBytes',
      'modelTimeouts.firstByte',
      'web.timeouts.total=9999',
      'web.proxy',
      'someFutureKey',
    ]);
    expect(settings.mcp).toMatchObject({
      sessionIdleTimeoutMs: 1_800_000,
      maxSessions: 32,
      allowedOrigins: [],
    });
    expect(settings.commands.maxOutputBytes).toBe(64 * 1024 * 1024);
    expect(settings.modelTimeouts.firstByteMs).toBe(60_000);
    // What only tightens, or changes nothing of safety, still applies.
    expect(settings.web.maxBytes).toBe(1000);
    expect(settings.model).toBe('anthropic/claude-sonnet-4-5');
  });

  it('applies lower limits and refuses higher ones; keeps more checkpoints, never fewer', () => {
    const settings = mergeSettings([
      {
        source: 'workspace',
        untrusted: true,
        settings: {
          repl: { timeout: 5, memoryMb: 4096 },
          lsp: { diagnosticsAfterEdit: false, diagnosticsTimeout: { cold: 60 } },
          checkpoints: { keep: 500, maxAgeDays: 1, enabled: false },
        },
      },
    ]);
    expect(settings.repl).toEqual({ timeoutMs: 5_000, memoryMb: 256 });
    expect(settings.lsp.diagnosticsAfterEdit).toBe(false);
    expect(settings.checkpoints).toMatchObject({ keep: 500, maxAgeDays: 30, enabled: true });
    expect(settings.ignoredUntrusted).toEqual([
      'repl.memoryMb=4096',
      'lsp.diagnosticsTimeout.cold=60',
      'checkpoints.maxAgeDays=1',
      'checkpoints.enabled=false',
    ]);
  });
});
