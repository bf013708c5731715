import { FieldError } from './field_error.js';

/** The model hint for the provider's small fast model (the parent's model when the provider has none). */
export const SMALL_MODEL = 'small';

/** A model as lathe names it, and a line when the file's choice could not be kept. */
export interface ModelChoice {
  model?: string;
  note?: string;
}

const PROVIDER_MODEL = /^[A-Za-z][\w.-]*\/\S+$/;

/** lathe's own files: `provider/model`, `small`, or `inherit` (the parent's). */
export function latheModel(value: string | undefined): ModelChoice {
  if (value === undefined || value === 'inherit') return {};
  if (value === SMALL_MODEL || PROVIDER_MODEL.test(value)) return { model: value };
  throw new FieldError('model', `must be provider/model, "small" or "inherit", not "${value}"`);
}

/** A model id without a provider, from a tool that speaks to one provider. */
function ofProvider(provider: string, value: string): ModelChoice {
  return { model: PROVIDER_MODEL.test(value) ? value : `${provider}/${value}` };
}

/** Claude Code: `haiku` is the small model; `sonnet` and `opus` are Anthropic's only, so the parent's model runs. */
export function claudeModel(value: string | undefined): ModelChoice {
  if (value === undefined || value === 'inherit') return {};
  if (value === 'haiku') return { model: SMALL_MODEL };
  if (value === 'sonnet' || value === 'opus')
    return {
      note: `model: "${value}" names no model outside Anthropic's aliases: the parent's model runs it`,
    };
  return ofProvider('anthropic', value);
}

export function geminiModel(value: string | undefined): ModelChoice {
  if (value === undefined || value === 'inherit') return {};
  return ofProvider('google', value);
}

export function codexModel(value: string | undefined): ModelChoice {
  if (value === undefined) return {};
  return ofProvider('openai', value);
}

/** OpenCode: `provider/model`, with a `#variant` (reasoning level) lathe leaves to the effort setting. */
export function opencodeModel(value: string | undefined): ModelChoice {
  if (value === undefined) return {};
  const model = value.replace(/#.*$/, '');
  if (!PROVIDER_MODEL.test(model)) throw new FieldError('model', `must be provider/model, not "${value}"`);
  return { model };
}
