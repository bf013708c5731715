/**
 * Models offered by name where one is picked (the interactive UI's `/model` picker). Any other
 * provider/model can still be named; what a model can do comes from the capabilities table.
 */
export const KNOWN_MODELS: readonly string[] = [
  'anthropic/claude-sonnet-4-5',
  'anthropic/claude-opus-4-5',
  'anthropic/claude-haiku-4-5',
  'openai/gpt-5',
  'openai/gpt-5-mini',
  'google/gemini-2.5-pro',
  'google/gemini-2.5-flash',
  'ollama/qwen2.5-coder',
];
