import { capabilitiesFor } from '../../provider/capabilities.js';
import { KNOWN_MODELS } from '../../provider/known_models.js';
import { type ModelSpec, parseModelSpec } from '../../provider/model_spec.js';
import type { PickData } from '../state/prompts.js';

function tokens(n: number): string {
  return n >= 1_000_000 ? `${n / 1_000_000}M` : `${Math.round(n / 1000)}k`;
}

/**
 * A model in a few words: what it still needs here, marked as `lathe --list-models` marks it
 * (`✗ OPENAI_API_KEY is not set`), then what the capabilities table says (`200k context · images`).
 */
function modelHint(name: string, missing: string | undefined): string {
  let spec: ModelSpec;
  try {
    spec = parseModelSpec(name);
  } catch {
    return '';
  }
  const caps = capabilitiesFor(spec);
  return [
    ...(missing ? [`✗ ${missing}`] : []),
    `${tokens(caps.contextWindow)} context`,
    ...(caps.images ? ['images'] : []),
  ].join(' · ');
}

/**
 * The `/model` picker: the current model first, then the model the settings name, then the known
 * models, each marked with what it still needs here (`missing`). Another provider/model is named
 * with `/model provider/model`.
 */
export function modelChoices(
  current: string | undefined,
  configured: string | undefined,
  missing: (model: string) => string | undefined,
): PickData {
  const names = [...new Set([current, configured, ...KNOWN_MODELS].filter((n): n is string => !!n))];
  return {
    kind: 'pick',
    title: 'Switch to which model? (/model provider/model names any other)',
    choices: names.map((name) => ({
      label: name === current ? `${name} (current)` : name,
      value: name,
      hint: modelHint(name, missing(name)),
    })),
  };
}
