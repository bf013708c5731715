import type { ImageModelV3 } from '@ai-sdk/provider';
import { API_KEY_VARIABLES, apiKeyVariable, BASE_URL_VARIABLES } from './create_model.js';
import { ModelConfigError, parseModelSpec } from './model_spec.js';

/**
 * The AI SDK image model `provider/model` names (settings `images.model`), with the key and
 * endpoint from the same environment variables as the chat models. Provider packages load only
 * when used.
 */
export async function createImageModel(name: string, env: NodeJS.ProcessEnv): Promise<ImageModelV3> {
  const spec = parseModelSpec(name);
  const key = () => {
    const variable = apiKeyVariable(spec.provider, env);
    if (variable) return env[variable] as string;
    throw new ModelConfigError(
      `${API_KEY_VARIABLES[spec.provider][0]} is not set: export it to draw with ${name} (settings images.model).`,
    );
  };
  const base = env[BASE_URL_VARIABLES[spec.provider]]?.replace(/\/+$/, '') || undefined;
  switch (spec.provider) {
    case 'openai':
    case 'openai-chat': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      return createOpenAI({ apiKey: key(), baseURL: base }).image(spec.modelId);
    }
    case 'google': {
      const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
      const baseURL = base && (/\/v1(beta|alpha)?$/.test(base) ? base : `${base}/v1beta`);
      return createGoogleGenerativeAI({ apiKey: key(), baseURL }).image(spec.modelId);
    }
    case 'openai-compatible': {
      if (!base)
        throw new ModelConfigError('an openai-compatible image model needs OPENAI_COMPATIBLE_BASE_URL.');
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      const apiKey = apiKeyVariable(spec.provider, env);
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: base,
        apiKey: apiKey && env[apiKey],
      }).imageModel(spec.modelId);
    }
    default:
      throw new ModelConfigError(
        `${spec.provider} has no image models in lathe: use openai/…, google/… or openai-compatible/… in images.model.`,
      );
  }
}
