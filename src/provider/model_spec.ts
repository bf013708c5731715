import { closestName } from '../util/closest_name.js';

export const PROVIDERS = [
  'anthropic',
  'openai',
  'openai-chat',
  'google',
  'openai-compatible',
  'ollama',
] as const;
export type ProviderName = (typeof PROVIDERS)[number];

export interface ModelSpec {
  provider: ProviderName;
  modelId: string;
}

export class ModelConfigError extends Error {}

/** Provider names people also type. */
const ALIASES: Record<string, ProviderName> = {
  gemini: 'google',
  claude: 'anthropic',
  compatible: 'openai-compatible',
  lmstudio: 'openai-compatible',
  vllm: 'openai-compatible',
  llamacpp: 'openai-compatible',
  openrouter: 'openai-compatible',
};

/** Parses `provider/model` (the model id may itself hold slashes, as OpenRouter's do). */
export function parseModelSpec(text: string): ModelSpec {
  const slash = text.indexOf('/');
  if (slash <= 0 || slash === text.length - 1) {
    throw new ModelConfigError(
      `--model must be provider/model, e.g. anthropic/claude-sonnet-4-5 (providers: ${PROVIDERS.join(', ')}); got "${text}"`,
    );
  }
  const name = text.slice(0, slash).toLowerCase();
  const provider = (PROVIDERS as readonly string[]).includes(name) ? (name as ProviderName) : ALIASES[name];
  if (!provider) {
    const meant = closestName(name, [...PROVIDERS, ...Object.keys(ALIASES)]);
    const guess = meant ? `did you mean ${meant}/${text.slice(slash + 1)}? ` : '';
    throw new ModelConfigError(`unknown provider "${name}": ${guess}(providers: ${PROVIDERS.join(', ')})`);
  }
  return { provider, modelId: text.slice(slash + 1) };
}
