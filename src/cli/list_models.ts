import { missingSetup } from '../provider/create_model.js';
import { KNOWN_MODELS } from '../provider/known_models.js';
import { PROVIDERS, type ProviderName } from '../provider/model_spec.js';
import { pricedModels } from '../provider/prices.js';

/** One known model, and what it still needs here. */
export interface ListedModel {
  model: string;
  provider: ProviderName;
  /** What is missing before it can be used: a key or an endpoint variable. */
  missing?: string;
}

/**
 * The models lathe knows by name (the model picker's and the price table's), by provider; any
 * other provider/model can still be named with --model.
 */
export function listedModels(env: NodeJS.ProcessEnv): ListedModel[] {
  return PROVIDERS.filter((provider) => provider !== 'openai-chat').flatMap((provider) => {
    const picked = KNOWN_MODELS.filter((m) => m.startsWith(`${provider}/`)).map((m) =>
      m.slice(provider.length + 1),
    );
    const ids = [...new Set([...picked, ...pricedModels(provider)])];
    const missing = missingSetup(provider, env);
    return ids.map((id) => ({ model: `${provider}/${id}`, provider, ...(missing ? { missing } : {}) }));
  });
}

/** `lathe --list-models`: one line per model, ✗ and what is missing when it cannot be used here. */
export function listModelsCommand(opts: { json?: boolean }, env: NodeJS.ProcessEnv = process.env): number {
  const models = listedModels(env);
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(models, null, 2)}\n`);
    return 0;
  }
  const width = Math.max(...models.map((m) => m.model.length));
  const lines = models.map((m) => (m.missing ? `✗ ${m.model.padEnd(width)}  ${m.missing}` : `✓ ${m.model}`));
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
