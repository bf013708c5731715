import type { SettingsLayer } from './types.js';

/** How browser_action gets its browser (settings `browser`). */
export interface BrowserSettings {
  /** The Chromium to run; default: the first of CHROMIUM_NAMES on PATH (a headless shell first). */
  executablePath?: string;
  /** `isolated`: a fresh profile each session; `persistent`: `userDataDir` kept; `cdp`: attach to `cdpUrl`. */
  mode: 'isolated' | 'persistent' | 'cdp';
  cdpUrl?: string;
  userDataDir?: string;
  viewport: { width: number; height: number };
}

/** What generate_image draws with (settings `images`): `provider/model`, e.g. `openai/gpt-image-1`. */
export interface ImageSettings {
  model?: string;
}

export const DEFAULT_BROWSER_SETTINGS: BrowserSettings = {
  mode: 'isolated',
  viewport: { width: 1280, height: 800 },
};

const BROWSER_MODES = ['isolated', 'persistent', 'cdp'] as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

const pixels = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value >= 100 && value <= 8000 ? value : undefined;

/** The problems of a `browser` section as written (validate.ts reports them naming the file). */
export function browserSettingsProblems(value: unknown): string[] {
  if (!isObject(value)) return ['"browser" must be an object'];
  const problems: string[] = [];
  for (const key of ['executablePath', 'cdpUrl', 'userDataDir'] as const)
    if (value[key] !== undefined && !text(value[key]))
      problems.push(`"browser.${key}" must be a non-empty string`);
  if (value.mode !== undefined && !(BROWSER_MODES as readonly unknown[]).includes(value.mode))
    problems.push(`"browser.mode" must be ${BROWSER_MODES.join(', ')}`);
  if (value.viewport !== undefined) {
    const viewport = value.viewport;
    if (!isObject(viewport) || !pixels(viewport.width) || !pixels(viewport.height))
      problems.push('"browser.viewport" must be {"width", "height"}, whole pixels from 100 to 8000');
  }
  return problems;
}

export function imageSettingsProblems(value: unknown): string[] {
  if (!isObject(value)) return ['"images" must be an object'];
  if (value.model !== undefined && !(text(value.model) ?? '').includes('/'))
    return ['"images.model" must be provider/model, e.g. "openai/gpt-image-1"'];
  return [];
}

/** Merges one layer's `browser` and `images` into the resolved settings (later wins). */
export function mergeBrowserSettings(
  resolved: { browser: BrowserSettings; images: ImageSettings },
  source: string,
  settings: SettingsLayer,
  warnings: string[],
): void {
  const { browser, images } = settings as { browser?: unknown; images?: unknown };
  if (browser !== undefined) {
    const problems = browserSettingsProblems(browser);
    if (problems.length > 0) warnings.push(...problems.map((p) => `${source}: ${p}`));
    else {
      const b = browser as Partial<BrowserSettings>;
      resolved.browser = {
        ...resolved.browser,
        ...Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)),
        viewport: b.viewport
          ? { width: b.viewport.width, height: b.viewport.height }
          : resolved.browser.viewport,
      };
    }
  }
  if (images !== undefined) {
    const problems = imageSettingsProblems(images);
    if (problems.length > 0) warnings.push(...problems.map((p) => `${source}: ${p}`));
    else if ((images as ImageSettings).model) resolved.images = { model: (images as ImageSettings).model };
  }
}
