import { type ProviderName, parseModelSpec } from './model_spec.js';

/** Each provider's small fast model, where it has one: what an agent type's `small` model stands for. */
const SMALL_MODELS: Partial<Record<ProviderName, string>> = {
  anthropic: 'claude-haiku-4-5',
  openai: 'gpt-5-mini',
  'openai-chat': 'gpt-5-mini',
  google: 'gemini-2.5-flash',
};

/**
 * The small fast model of the provider `model` (`provider/model`) runs on, as `provider/model`;
 * undefined for a provider without one (local servers, compatible endpoints), whose own model
 * should run instead.
 */
export function smallModelOf(model: string): string | undefined {
  const { provider } = parseModelSpec(model);
  const small = SMALL_MODELS[provider];
  return small && `${model.slice(0, model.indexOf('/'))}/${small}`;
}
