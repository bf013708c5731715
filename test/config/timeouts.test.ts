import { describe, expect, it } from 'vitest';
import { mergeSettings } from '../../src/config/settings.js';

describe('modelTimeouts and mcp settings', () => {
  it('default to 60 s first byte, 120 s idle, 10 s MCP start-up, 30 min and 32 served sessions', () => {
    const settings = mergeSettings([]);
    expect(settings.modelTimeouts).toEqual({ firstByteMs: 60_000, idleMs: 120_000 });
    expect(settings.mcp).toEqual({
      startupTimeoutMs: 10_000,
      sessionIdleTimeoutMs: 1_800_000,
      maxSessions: 32,
      allowedOrigins: [],
    });
  });

  it('read mcp.allowedOrigins as origins, and warn about one that is not', () => {
    const warnings: string[] = [];
    const settings = mergeSettings(
      [
        {
          source: 'a.json',
          settings: { mcp: { allowedOrigins: ['HTTP://App.Localhost:5173/', 'https://x.example:443'] } },
        },
        { source: 'b.json', settings: { mcp: { allowedOrigins: ['https://x.example/path', 'null'] } } },
      ],
      warnings,
    );
    expect(settings.mcp.allowedOrigins).toEqual(['http://app.localhost:5173', 'https://x.example']);
    expect(warnings).toEqual([
      'b.json: mcp.allowedOrigins must be a list of web origins such as "https://app.example" (scheme, host and port)',
    ]);
  });

  it('take seconds (fractions too), a later layer winning key by key', () => {
    const settings = mergeSettings([
      { source: 'global', settings: { modelTimeouts: { firstByte: 30, idle: 90 }, mcp: { maxSessions: 4 } } },
      { source: 'workspace', settings: { modelTimeouts: { idle: 0.5 }, mcp: { startupTimeout: 2.5 } } },
    ]);
    expect(settings.modelTimeouts).toEqual({ firstByteMs: 30_000, idleMs: 500 });
    expect(settings.mcp).toMatchObject({ startupTimeoutMs: 2_500, maxSessions: 4 });
  });

  it('warn about a wrong value, naming the file and key, and keep the earlier value', () => {
    const warnings: string[] = [];
    const settings = mergeSettings(
      [
        {
          source: 'a.json',
          settings: { modelTimeouts: { firstByte: -1, idle: '9' }, mcp: { maxSessions: 2.5 } } as never,
        },
        { source: 'b.json', settings: { mcp: 'fast' } as never },
      ],
      warnings,
    );
    expect(settings.modelTimeouts).toEqual({ firstByteMs: 60_000, idleMs: 120_000 });
    expect(settings.mcp.maxSessions).toBe(32);
    expect(warnings).toEqual([
      'a.json: modelTimeouts.firstByte must be a positive number of seconds',
      'a.json: modelTimeouts.idle must be a positive number of seconds',
      'a.json: mcp.maxSessions must be a positive whole number',
      'b.json: mcp must be an object',
    ]);
  });
});
