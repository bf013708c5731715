import type { Page } from 'playwright-core';
import { type LaunchedBrowser, type LaunchOptions, launchBrowser } from './launch.js';
import { PinningProxy } from './pinning_proxy.js';
import { guardRequests, type RequestPolicy } from './request_guard.js';
import type { TreeLine } from './snapshot.js';

export interface BrowserSessionOptions extends LaunchOptions {
  policy: RequestPolicy;
}

/** Lines kept of each log; older ones are dropped (and counted). */
const LOG_LINES = 200;

class BoundedLog {
  private lines: string[] = [];
  private dropped = 0;
  push(line: string): void {
    this.lines.push(line.length > 500 ? `${line.slice(0, 499)}…` : line);
    if (this.lines.length > LOG_LINES) {
      this.lines.shift();
      this.dropped++;
    }
  }
  /** The lines since the last read, and how many of those were dropped. */
  take(): { lines: string[]; dropped: number } {
    const taken = { lines: this.lines, dropped: this.dropped };
    this.lines = [];
    this.dropped = 0;
    return taken;
  }
}

/**
 * The session's one browser: launched on first use, one page at a time, every request through
 * the policy. A browser that crashes or is killed is noticed; the next action launches a new one
 * and says so. `close` ends it (the runtime calls it when the session ends).
 */
export class BrowserSession {
  private launched: LaunchedBrowser | undefined;
  private current: Page | undefined;
  private starting: Promise<Page> | undefined;
  /** Why the last browser ended without being closed, until an action has reported it. */
  private lostReason: string | undefined;
  private closing = false;
  /** The proxy a launched browser's traffic goes through (an attached one's cannot be set). */
  private proxy: Promise<PinningProxy> | undefined;
  readonly console = new BoundedLog();
  readonly network = new BoundedLog();
  /** The last snapshot taken, for the next one's delta. */
  lastTree: { url: string; lines: TreeLine[] } | undefined;

  constructor(private readonly options: BrowserSessionOptions) {}

  get running(): boolean {
    return this.launched !== undefined;
  }

  /**
   * After an action failed: whether the browser (or its page) died under it. A killed browser is
   * not always reported at once (its helper processes may hold the connection open), so a page
   * that closed under the action counts too: the old browser is ended and the next `page()`
   * launches a new one and says so.
   */
  async noticeLost(): Promise<boolean> {
    const launched = this.launched;
    // Its end was reported while the action ran.
    if (!launched) return this.lostReason !== undefined;
    const disconnected = launched.browser !== undefined && !launched.browser.isConnected();
    if (!disconnected && !this.current?.isClosed()) return false;
    this.launched = undefined;
    this.current = undefined;
    this.lostReason = 'it crashed or was killed';
    await Promise.race([
      launched.close().catch(() => {}),
      new Promise((resolve) => setTimeout(resolve, 5_000)),
    ]);
    return true;
  }

  /** The page, when the browser runs and its page is open. */
  get openPage(): Page | undefined {
    return this.current && !this.current.isClosed() ? this.current : undefined;
  }

  /**
   * The page to act on, launching the browser when none runs. `notice`: what happened since the
   * last action (the browser crashed and a new one was launched).
   */
  async page(): Promise<{ page: Page; notice?: string }> {
    const lost = this.lostReason;
    this.lostReason = undefined;
    if (this.current && !this.current.isClosed()) return { page: this.current };
    if (this.launched && this.current?.isClosed()) {
      // The site closed its window: a new page in the same browser.
      this.current = await this.newPage(this.launched);
      return { page: this.current, notice: 'The page had been closed; a new blank page was opened.' };
    }
    this.starting ??= this.launch().finally(() => {
      this.starting = undefined;
    });
    const page = await this.starting;
    return lost
      ? {
          page,
          notice: `The browser had stopped (${lost}); a new one was launched and the earlier page is lost.`,
        }
      : { page };
  }

  private async launch(): Promise<Page> {
    const refused = (url: string, reason: string) => this.network.push(`BLOCKED ${url} — ${reason}`);
    if (this.options.settings.mode !== 'cdp') this.proxy ??= PinningProxy.start(this.options.policy, refused);
    const launched = await launchBrowser({ ...this.options, proxy: (await this.proxy)?.url });
    this.launched = launched;
    this.lastTree = undefined;
    const lost = (reason: string) => {
      if (this.launched !== launched) return;
      this.launched = undefined;
      this.current = undefined;
      if (!this.closing) this.lostReason = reason;
    };
    if (launched.browser) launched.browser.on('disconnected', () => lost('it crashed or was killed'));
    // A persistent profile's browser is known only by its context.
    else launched.context.on('close', () => lost('it closed or crashed'));
    // Every page the context opens (ours, or a tab a link opened) is watched and becomes the one acted on.
    launched.context.on('page', (opened) => {
      this.watch(opened);
      this.current = opened;
    });
    await guardRequests(launched.context, this.options.policy, refused);
    this.current = await this.newPage(launched);
    return this.current;
  }

  private async newPage(launched: LaunchedBrowser): Promise<Page> {
    const existing = launched.context.pages()[0];
    if (existing) {
      this.watch(existing);
      return existing;
    }
    // The context's `page` event watches it (and makes it the page acted on).
    return launched.context.newPage();
  }

  /** Logs what a page does, and answers its dialogs (an open one would block it). */
  private watch(page: Page): void {
    page.setDefaultTimeout(10_000);
    page.setDefaultNavigationTimeout(30_000);
    page.on('console', (message) => this.console.push(`[${message.type()}] ${message.text()}`));
    page.on('pageerror', (error) => this.console.push(`[pageerror] ${error.message.split('\n')[0]}`));
    page.on('crash', () => this.console.push('[crash] the page crashed'));
    page.on('dialog', (dialog) => {
      this.console.push(`[dialog ${dialog.type()}] ${dialog.message()} (dismissed)`);
      dialog.dismiss().catch(() => {});
    });
    page.on('response', (response) =>
      this.network.push(`${response.request().method()} ${response.status()} ${response.url()}`),
    );
    page.on('requestfailed', (request) => {
      const failure = request.failure()?.errorText ?? 'failed';
      if (failure !== 'net::ERR_BLOCKED_BY_CLIENT')
        this.network.push(`${request.method()} FAILED ${request.url()} — ${failure}`);
    });
  }

  async close(): Promise<void> {
    const launched = this.launched;
    const proxy = this.proxy;
    this.launched = undefined;
    this.current = undefined;
    this.lastTree = undefined;
    this.proxy = undefined;
    this.closing = true;
    try {
      await launched?.close();
    } finally {
      this.closing = false;
      await (await proxy)?.close();
    }
  }
}
