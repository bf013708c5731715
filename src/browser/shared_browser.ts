import type { BrowserSettings } from '../config/browser_settings.js';
import type { BrowserHost, Closable } from '../tool/context/browser.js';

/** The runtime's browser slot: one browser per session, closed by `close` when the session ends. */
export class SharedBrowser implements BrowserHost {
  private held: Closable | undefined;

  constructor(
    readonly settings: BrowserSettings,
    readonly allow: readonly string[],
  ) {}

  shared<T extends Closable>(open: () => T): T {
    this.held ??= open();
    return this.held as T;
  }

  async close(): Promise<void> {
    const held = this.held;
    this.held = undefined;
    await held?.close().catch(() => {});
  }
}
