import { describe, expect, it } from 'vitest';
import { lathe } from '../support/cli.js';
import { tempDir } from '../support/runtime_fixtures.js';

const env = {
  LATHE_HOME: tempDir('lathe-home-'),
  ANTHROPIC_API_KEY: 'test-key',
  OPENAI_API_KEY: '',
  GEMINI_API_KEY: '',
  GOOGLE_API_KEY: '',
  GOOGLE_GENERATIVE_AI_API_KEY: '',
  OPENAI_COMPATIBLE_BASE_URL: '',
};

describe('lathe --list-models', () => {
  it('lists the known models by provider, ✗ with what is missing where a key is not set', () => {
    const r = lathe(['--list-models'], { env });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toContain('✓ anthropic/claude-sonnet-4-5');
    expect(lines.find((l) => l.startsWith('✗ openai/gpt-5 '))).toMatch(/ {2}OPENAI_API_KEY is not set$/);
    expect(lines.find((l) => l.includes('google/gemini-2.5-pro'))).toMatch(/GEMINI_API_KEY is not set$/);
    // Grouped by provider: every anthropic model before the first openai one.
    const providers = lines.map((l) => l.slice(2).split('/')[0]);
    expect(providers.lastIndexOf('anthropic')).toBeLessThan(providers.indexOf('openai'));
  });

  it('--json gives each model, its provider and what it misses', () => {
    const r = lathe(['--list-models', '--json'], { env });
    const models = JSON.parse(r.stdout) as Array<{ model: string; provider: string; missing?: string }>;
    expect(models).toContainEqual({ model: 'anthropic/claude-sonnet-4-5', provider: 'anthropic' });
    expect(models).toContainEqual({
      model: 'openai/gpt-5',
      provider: 'openai',
      missing: 'OPENAI_API_KEY is not set',
    });
  });
});
