import { WebError } from './web_error.js';

/** The URL the model gave, parsed; one clear line when it is not a URL. */
export function parseUrl(text: string): URL {
  try {
    return new URL(text.trim());
  } catch {
    throw new WebError(
      `"${text.length > 80 ? `${text.slice(0, 77)}…` : text}" is not a valid URL (give a full http:// or https:// address)`,
      'refused',
    );
  }
}
