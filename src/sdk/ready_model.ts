import type { LanguageModelV3 } from '@ai-sdk/provider';
import { modelFromEnvironment } from '../agent/subagents/child_model.js';
import type { ModelSpec, ProviderName } from '../provider/model_spec.js';
import type { Runtime } from '../runtime/create_runtime.js';
import { UsageError } from './errors.js';
import { applyCapabilities, type ModelSetup } from './run_setup.js';

/** The AI SDK's provider ids (`anthropic.messages`, `openai.chat`) by the family lathe knows them as. */
function providerFamily(providerId: string): ProviderName {
  const [family, api] = providerId.toLowerCase().split('.');
  if (family === 'anthropic') return 'anthropic';
  if (family === 'openai') return api === 'chat' ? 'openai-chat' : 'openai';
  if (family === 'google') return 'google';
  if (family === 'ollama') return 'ollama';
  return 'openai-compatible';
}

/** Whether a value is a language model object of the AI SDK (specification v3), not a name. */
export function isLanguageModel(value: unknown): value is LanguageModelV3 {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as LanguageModelV3).doStream === 'function' &&
    typeof (value as LanguageModelV3).modelId === 'string'
  );
}

/**
 * A model the program made itself, with any provider of the AI SDK: what it can do is judged by
 * its family and id as for a named model (an unknown family as an OpenAI-compatible one), and its
 * name is `provider/modelId`. Children that name another model load it from the environment.
 */
export function readyModelSetup(runtime: Runtime, model: LanguageModelV3): ModelSetup {
  if (model.specificationVersion !== 'v3')
    throw new UsageError(
      `model: a language model of specification ${String(model.specificationVersion)}; lathe takes v3 (ai@6 providers)`,
    );
  const spec: ModelSpec = { provider: providerFamily(model.provider), modelId: model.modelId };
  const capabilities = applyCapabilities(runtime, spec);
  return {
    modelName: `${model.provider.split('.')[0]}/${model.modelId}`,
    spec,
    capabilities,
    model,
    providerOptions: undefined,
    optionsForEffort: () => undefined,
    childModels: modelFromEnvironment,
  };
}
