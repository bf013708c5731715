import { describe, expect, it } from 'vitest';
import { smallModelOf } from '../../src/provider/small_model.js';

describe("a provider's small fast model", () => {
  it('is named under the provider the parent model uses, as it was typed', () => {
    expect(smallModelOf('anthropic/claude-opus-4-5')).toBe('anthropic/claude-haiku-4-5');
    expect(smallModelOf('openai-chat/gpt-5')).toBe('openai-chat/gpt-5-mini');
    expect(smallModelOf('gemini/gemini-2.5-pro')).toBe('gemini/gemini-2.5-flash');
  });

  it('is none for a provider without one, so the parent’s model runs', () => {
    expect(smallModelOf('ollama/qwen2.5-coder')).toBeUndefined();
    expect(smallModelOf('openai-compatible/my-model')).toBeUndefined();
  });
});
