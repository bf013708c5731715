import type { BrowserSettings } from '../../config/browser_settings.js';

/** Anything the runtime must end when the session ends. */
export interface Closable {
  close(): Promise<void>;
}

/**
 * Where browser_action keeps the session's one browser: the settings it is launched with, and
 * a slot the runtime closes when the session ends (a child agent shares its parent's).
 */
export interface BrowserHost {
  readonly settings: BrowserSettings;
  /** Settings `web.allow`: what the browser may reach beyond global unicast addresses. */
  readonly allow: readonly string[];
  /** The browser, made by `open` on the first call. */
  shared<T extends Closable>(open: () => T): T;
}
