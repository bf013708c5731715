import type { LanguageModelV3, SharedV3ProviderOptions } from '@ai-sdk/provider';
import { smallModelOf } from '../provider/small_model.js';
import type { ModelAccess } from '../tool/context/web.js';
import { completeText } from './model_stream.js';
import { hasNativeSearch, nativeSearch } from './native_search.js';
import type { ModelSource } from './subagents/child_model.js';

/**
 * What tools may ask of the agent's model: a one-off question to the provider's small model
 * (loaded on first use, the agent's own model when there is none or it cannot load) and the
 * provider's own search.
 */
export function modelAccess(options: {
  model: LanguageModelV3;
  modelName: string;
  providerOptions?: SharedV3ProviderOptions;
  models: ModelSource;
}): ModelAccess {
  const { model, modelName } = options;
  let small: Promise<{ model: LanguageModelV3; name: string }> | undefined;
  const smallModel = () => {
    small ??= (async () => {
      const name = smallModelOf(modelName);
      if (!name || name === modelName) return { model, name: modelName };
      return options
        .models(name)
        .then((loaded) => ({ model: loaded.model, name }))
        .catch(() => ({ model, name: modelName }));
    })();
    return small;
  };
  return {
    modelName,
    async askSmall(request, signal) {
      const chosen = await smallModel();
      const { text } = await completeText(chosen.model, {
        system: request.system,
        messages: [{ role: 'user', content: [{ type: 'text', text: request.prompt }] }],
        signal,
      });
      return { text, model: chosen.name };
    },
    ...(hasNativeSearch(modelName)
      ? {
          nativeSearch: (query, signal) =>
            nativeSearch(model, modelName, query, signal, options.providerOptions),
        }
      : {}),
  };
}
