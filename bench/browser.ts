// The browser side of the web tools: launch to first snapshot, and a snapshot of a 5,000-node page.
// `node --import tsx bench/web.ts` (or `npm run bench -- browser`).
import { fileURLToPath } from 'node:url';
import { runBrowserAction } from '../src/browser/actions.js';
import { BrowserSession } from '../src/browser/session.js';
import { DEFAULT_BROWSER_SETTINGS } from '../src/config/browser_settings.js';
import { bigPage, servePages } from '../test/browser/pages.js';
import { median, printTable, timeRuns } from './stats.js';

const LAUNCH_RUNS = 5;
const SNAPSHOT_RUNS = 10;

const session = () =>
  new BrowserSession({ settings: DEFAULT_BROWSER_SETTINGS, policy: { allow: ['127.0.0.1'] } });

export async function benchBrowser(): Promise<Array<Record<string, string | number>>> {
  const site = await servePages({
    '/': '<title>Hello</title><h1>Hello</h1><p>A small page.</p>',
    '/big': bigPage(1250),
  });
  try {
    const launch = await timeRuns(
      LAUNCH_RUNS,
      async () => {
        const browser = session();
        await runBrowserAction(browser, { action: 'launch', url: `${site.url}/` });
        await browser.close();
      },
      1,
    );
    const browser = session();
    await runBrowserAction(browser, { action: 'navigate', url: `${site.url}/big` });
    const snapshot = await timeRuns(SNAPSHOT_RUNS, () =>
      runBrowserAction(browser, { action: 'snapshot', full: true }),
    );
    await browser.close();
    return [
      {
        case: 'browser: launch to first snapshot',
        'median ms': Math.round(median(launch)),
        runs: LAUNCH_RUNS,
      },
      {
        case: 'browser: snapshot of a 5,000-node page',
        'median ms': Math.round(median(snapshot)),
        runs: SNAPSHOT_RUNS,
      },
    ];
  } finally {
    await site.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) printTable('web: the browser', await benchBrowser());
