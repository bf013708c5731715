import type { LanguageModelV3, SharedV3ProviderOptions } from '@ai-sdk/provider';
import { capabilitiesFor, type ModelCapabilities } from '../../provider/capabilities.js';
import { createModel, providerOptionsFor } from '../../provider/create_model.js';
import { parseModelSpec } from '../../provider/model_spec.js';

/** The model a child runs. */
export interface ChildModel {
  model: LanguageModelV3;
  modelName: string;
  capabilities: ModelCapabilities;
  providerOptions?: SharedV3ProviderOptions;
}

/** Loads the model a child names (`provider/model`). */
export type ModelSource = (name: string) => Promise<ChildModel>;

/** A model by name, its key and base URL from the environment as for any run. */
export const modelFromEnvironment: ModelSource = async (name) => {
  const spec = parseModelSpec(name);
  return {
    model: await createModel(spec),
    modelName: name,
    capabilities: capabilitiesFor(spec),
    providerOptions: providerOptionsFor(spec),
  };
};
