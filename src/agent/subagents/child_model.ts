import type { LanguageModelV3, SharedV3ProviderOptions } from '@ai-sdk/provider';
import { capabilitiesFor, type ModelCapabilities } from '../../provider/capabilities.js';
import { createModel, type ProviderOptions, providerOptionsFor } from '../../provider/create_model.js';
import { type ProviderName, parseModelSpec } from '../../provider/model_spec.js';

/** The model a child runs. */
export interface ChildModel {
  model: LanguageModelV3;
  modelName: string;
  capabilities: ModelCapabilities;
  providerOptions?: SharedV3ProviderOptions;
}

/** Loads the model a child names (`provider/model`). */
export type ModelSource = (name: string) => Promise<ChildModel>;

/**
 * Models for children: one on the parent's provider goes through the parent's endpoint and key
 * (`--base-url`, `--api-key`); another provider's takes its key and base URL from the
 * environment, as for any run.
 */
export function modelSourceBeside(parent: {
  provider?: ProviderName;
  endpoint?: ProviderOptions;
}): ModelSource {
  return async (name) => {
    const spec = parseModelSpec(name);
    const endpoint =
      spec.provider === parent.provider ? parent.endpoint : { timeouts: parent.endpoint?.timeouts };
    return {
      model: await createModel(spec, endpoint),
      modelName: name,
      capabilities: capabilitiesFor(spec),
      providerOptions: providerOptionsFor(spec),
    };
  };
}

/** A model by name, its key and base URL from the environment as for any run. */
export const modelFromEnvironment: ModelSource = modelSourceBeside({});
