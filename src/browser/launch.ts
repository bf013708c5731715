import { accessSync, constants } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import type { BrowserSettings } from '../config/browser_settings.js';
import { findOnPath } from '../util/find_on_path.js';
import { programBehindLauncher } from './chromium_launcher.js';

/**
 * The system browsers lathe looks for on PATH, in order; it never downloads one. The headless
 * shells come first: lathe's browser is always headless, and a shell starts its first page in
 * about half the time of the full browser, which brings its desktop's processes along.
 */
export const CHROMIUM_NAMES = [
  'chromium-headless-shell',
  'chrome-headless-shell',
  'chromium',
  'chromium-browser',
  'google-chrome',
  'google-chrome-stable',
];

/** A launch failure the model and user can act on (one line, no stack). */
export class BrowserLaunchError extends Error {}

/** The Chromium to run: the setting's as it is, else the first on PATH (the program behind its launcher script). */
export function chromiumPath(
  settings: Pick<BrowserSettings, 'executablePath'>,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const path = settings.executablePath;
  if (path) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      throw new BrowserLaunchError(
        `browser.executablePath ${path} is not a program that can be run: fix the setting, or remove it to use the chromium on PATH`,
      );
    }
  }
  const found = findOnPath(CHROMIUM_NAMES, env);
  if (found) return programBehindLauncher(found);
  throw new BrowserLaunchError(
    `no Chromium found on PATH (looked for ${CHROMIUM_NAMES.join(', ')}): install it (apt install chromium-headless-shell, or chromium) or set browser.executablePath in settings`,
  );
}

/** What launching gives: the context pages open in, and the browser when lathe owns its process. */
export interface LaunchedBrowser {
  context: BrowserContext;
  browser?: Browser;
  /** Ends it: closes what lathe launched, only disconnects from a browser it attached to. */
  close(): Promise<void>;
}

export interface LaunchOptions {
  settings: BrowserSettings;
  /** More command-line switches (tests map host names with `--host-resolver-rules`). */
  args?: readonly string[];
  /** The proxy every request goes through (`http://127.0.0.1:port`); loopback too. */
  proxy?: string;
}

/** Chromium's switches: quiet, no first-run work. */
function chromiumArgs(extra: readonly string[] = []): string[] {
  return ['--no-first-run', '--no-default-browser-check', '--disable-background-networking', ...extra];
}

/**
 * Chromium's own sandbox for pages, except as root, where Chromium refuses to start one ("Running
 * as root without --no-sandbox is not supported"). Playwright turns it off unless asked for.
 */
const chromiumSandbox = () => process.getuid?.() !== 0;

const CONTEXT_OPTIONS = {
  // A service worker's requests would not pass page.route, so none may register.
  serviceWorkers: 'block' as const,
  acceptDownloads: false,
};

function describeLaunchError(error: unknown, path: string): string {
  const message = ((error as Error).message ?? String(error)).split('\n')[0];
  if (/ENOENT|Failed to launch.*spawn/i.test(message))
    return `the browser at ${path} could not be started (${message}); check browser.executablePath or install chromium`;
  return `the browser could not be started: ${message}`;
}

/** Starts or attaches to the browser the settings name. */
export async function launchBrowser(options: LaunchOptions): Promise<LaunchedBrowser> {
  const { settings } = options;
  const { chromium } = await import('playwright-core');
  const viewport = settings.viewport;
  if (settings.mode === 'cdp') {
    if (!settings.cdpUrl) throw new BrowserLaunchError('browser.mode is "cdp" but browser.cdpUrl is not set');
    let browser: Browser;
    try {
      browser = await chromium.connectOverCDP(settings.cdpUrl, { timeout: 15_000 });
    } catch (error) {
      throw new BrowserLaunchError(
        `could not attach to the browser at ${settings.cdpUrl}: ${((error as Error).message ?? '').split('\n')[0]}`,
      );
    }
    const context = browser.contexts()[0] ?? (await browser.newContext({ viewport, ...CONTEXT_OPTIONS }));
    // Attached, not owned: leave the user's browser running.
    return { context, browser, close: async () => {} };
  }
  const executablePath = chromiumPath(settings);
  const launch = {
    executablePath,
    headless: true,
    args: chromiumArgs(options.args),
    chromiumSandbox: chromiumSandbox(),
    timeout: 30_000,
    // Playwright sends loopback through the proxy too (`<-loopback>`).
    ...(options.proxy ? { proxy: { server: options.proxy } } : {}),
  };
  try {
    if (settings.mode === 'persistent') {
      if (!settings.userDataDir)
        throw new BrowserLaunchError('browser.mode is "persistent" but browser.userDataDir is not set');
      const context = await chromium.launchPersistentContext(settings.userDataDir, {
        ...launch,
        viewport,
        ...CONTEXT_OPTIONS,
      });
      return { context, close: () => context.close() };
    }
    const browser = await chromium.launch(launch);
    const context = await browser.newContext({ viewport, ...CONTEXT_OPTIONS });
    return { context, browser, close: () => browser.close() };
  } catch (error) {
    if (error instanceof BrowserLaunchError) throw error;
    throw new BrowserLaunchError(describeLaunchError(error, executablePath));
  }
}
