import type { AuthMethod } from '@agentclientprotocol/sdk';
import { API_KEY_VARIABLES, apiKeyVariable } from '../provider/create_model.js';
import { parseModelSpec } from '../provider/model_spec.js';

export const AUTH_METHODS: AuthMethod[] = [
  {
    id: 'api-key',
    name: 'API key',
    description: `lathe reads the model provider's key from its environment (${[
      ...new Set(Object.values(API_KEY_VARIABLES).flat()),
    ].join(', ')}) or the apiKey of its settings`,
  },
];

/**
 * Whether the session's model can be reached: its provider's key is in the environment (or given),
 * or the provider needs none. Returns the line that says what to do, or undefined when it can.
 */
export function missingKey(
  model: string | undefined,
  env: NodeJS.ProcessEnv,
  apiKey?: string,
): string | undefined {
  if (!model)
    return 'no model: set "model" in ~/.lathe/settings/settings.json (e.g. anthropic/claude-sonnet-4-5), or LATHE_MODEL, or pass --model to lathe acp';
  let provider: ReturnType<typeof parseModelSpec>['provider'];
  try {
    provider = parseModelSpec(model).provider;
  } catch (error) {
    return (error as Error).message;
  }
  const variables = API_KEY_VARIABLES[provider as keyof typeof API_KEY_VARIABLES];
  if (!variables || provider === 'openai-compatible' || apiKey) return undefined;
  if (apiKeyVariable(provider as keyof typeof API_KEY_VARIABLES, env)) return undefined;
  return `no API key for ${model}: set ${variables.join(' or ')} in the environment the editor starts lathe with`;
}
