import { capabilitiesFor } from '../../provider/capabilities.js';
import { KNOWN_MODELS } from '../../provider/known_models.js';
import { parseModelSpec } from '../../provider/model_spec.js';
import type { PickData } from '../state/prompts.js';

function tokens(n: number): string {
  return n >= 1_000_000 ? `${n / 1_000_000}M` : `${Math.round(n / 1000)}k`;
}

/** What the capabilities table says of a model, in a few words: `200k context · images`. */
function modelHint(name: string): string {
  try {
    const caps = capabilitiesFor(parseModelSpec(name));
    return [`${tokens(caps.contextWindow)} context`, ...(caps.images ? ['images'] : [])].join(' · ');
  } catch {
    return '';
  }
}

/**
 * The `/model` picker: the current model first, then the model the settings name, then the known
 * models. Another provider/model is named with `/model provider/model`.
 */
export function modelChoices(current: string | undefined, configured: string | undefined): PickData {
  const names = [...new Set([current, configured, ...KNOWN_MODELS].filter((n): n is string => !!n))];
  return {
    kind: 'pick',
    title: 'Switch to which model? (/model provider/model names any other)',
    choices: names.map((name) => ({
      label: name === current ? `${name} (current)` : name,
      value: name,
      hint: modelHint(name),
    })),
  };
}
