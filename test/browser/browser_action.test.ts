import { execFileSync } from 'node:child_process';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { BrowserSession } from '../../src/browser/session.js';
import { DEFAULT_BROWSER_SETTINGS } from '../../src/config/browser_settings.js';
import type { SettingsLayer } from '../../src/config/types.js';
import { createRuntime, type Runtime } from '../../src/runtime/create_runtime.js';
import { eventually } from '../support/processes.js';
import { needs, testNeeds } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { tableResolver } from '../web/local_server.js';
import { bigPage, type PageServer, servePages } from './pages.js';

// Each test launches a real Chromium, a few seconds each on a busy two-core machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

/** A runtime whose browser may reach what `allow` names; browser asks answered yes. */
function browserRuntime(settings: SettingsLayer = {}, allow = ['127.0.0.1']): Runtime {
  return createRuntime({
    cwd: tempDir(),
    documentsRoot: tempDir('lathe-home-'),
    env: {},
    approve: ['browser'],
    settings: { web: { allow }, ...settings },
  });
}

/** The reference the snapshot gives the line that holds `text`. */
function refOf(snapshot: string, text: string): string {
  const line = snapshot.split('\n').find((l) => l.includes(text));
  const ref = line?.match(/\[(e\d+)\]/)?.[1];
  if (!ref) throw new Error(`no reference for ${text} in:\n${snapshot}`);
  return ref;
}

/** The Chromium processes this test process started (Playwright spawns them as its children). */
function chromiumChildren(): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(process.pid), 'chrom'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

const LOGIN = `<!doctype html><title>Sign in</title><h1>Sign in</h1>
<form action="/login" method="post">
  <label>User <input name="user"></label>
  <label>Password <input type="password" name="pass"></label>
  <button>Sign in</button>
</form>`;

needs('chromium')('browser_action on one page server', () => {
  let site: PageServer;
  let rt: Runtime;
  beforeAll(async () => {
    site = await servePages({
      '/': LOGIN,
      '/login': (_, body) => {
        const form = new URLSearchParams(body);
        return {
          body: `<title>Home</title><h1>Welcome ${form.get('user')}</h1><p>password length ${form.get('pass')?.length}</p>`,
        };
      },
      '/big': bigPage(1250),
      '/counter': `<title>Counter</title><h1>Counter</h1><p id="n">0</p>
        <button onclick="document.getElementById('n').textContent = String(Number(document.getElementById('n').textContent) + 1)">Add</button>
        <ul>${Array.from({ length: 40 }, (_, i) => `<li>row ${i}</li>`).join('')}</ul>`,
    });
    rt = browserRuntime();
  });
  afterAll(async () => {
    await rt.dispose();
    await site.close();
  });

  it('fills and submits a login form', async () => {
    const opened = await rt.runTool('browser_action', { action: 'navigate', url: `${site.url}/` });
    expect(opened.isError, opened.text).toBe(false);
    expect(opened.text).toContain('heading "Sign in" [level=1]');
    await rt.runTool('browser_action', {
      action: 'type',
      ref: refOf(opened.text, 'textbox "User"'),
      text: 'ada',
    });
    await rt.runTool('browser_action', {
      action: 'type',
      ref: refOf(opened.text, 'textbox "Password"'),
      text: 'secret',
    });
    const done = await rt.runTool('browser_action', {
      action: 'click',
      ref: refOf(opened.text, 'button "Sign in"'),
    });
    expect(done.isError, done.text).toBe(false);
    expect(done.text).toContain('heading "Welcome ada"');
    expect(site.requests.find((r) => r.path === '/login')?.body).toBe('user=ada&pass=secret');
  });

  it('snapshots a 5,000-node page in under 8,000 tokens and says what it left out', async () => {
    const r = await rt.runTool('browser_action', { action: 'navigate', url: `${site.url}/big` });
    expect(r.isError, r.text).toBe(false);
    expect(countTokens(r.text)).toBeLessThan(8_000);
    expect(r.text).toMatch(/more lines left out \(snapshot capped at 8,000 tokens\): pass find/);
    const found = await rt.runTool('browser_action', { action: 'snapshot', find: 'link 1234' });
    expect(found.text).toContain('link "link 1234"');
    expect(found.text).not.toContain('link "link 1233"');
  });

  it('returns only what changed in the second snapshot of a page', async () => {
    const first = await rt.runTool('browser_action', { action: 'navigate', url: `${site.url}/counter` });
    expect(first.text).toContain('listitem "row 39"');
    const clicked = await rt.runTool('browser_action', {
      action: 'click',
      ref: refOf(first.text, 'button "Add"'),
    });
    expect(clicked.text).toContain('Changes since the last snapshot');
    expect(clicked.text).toContain('(new) paragraph "1"');
    expect(clicked.text).toContain('(removed) paragraph "0"');
    expect(clicked.text).not.toContain('row 39');
    // The reference stays the element's own across snapshots.
    expect(refOf(clicked.text, '(new) paragraph "1"')).toBe(refOf(first.text, 'paragraph "0"'));
    const again = await rt.runTool('browser_action', { action: 'snapshot' });
    expect(again.text).toContain('No changes since the last snapshot.');
    const full = await rt.runTool('browser_action', { action: 'snapshot', full: true });
    expect(refOf(full.text, 'button "Add"')).toBe(refOf(first.text, 'button "Add"'));
  });

  it('answers an unknown element reference with one line saying what to do', async () => {
    const r = await rt.runTool('browser_action', { action: 'click', ref: 'e99999' });
    expect(r).toMatchObject({ isError: true });
    expect(r.text).toBe(
      'Unknown element reference e99999: take a snapshot and use one of its [e…] references.',
    );
  });

  it('takes a screenshot as an image', async () => {
    const r = await rt.runTool('browser_action', { action: 'screenshot' });
    expect(r.isError, r.text).toBe(false);
    expect(r.images?.[0]?.mediaType).toBe('image/jpeg');
    expect(Buffer.from(r.images![0].data, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(r.text).toContain('viewport 1280×800');
  });

  it('refuses non-HTTP URLs before anything opens', async () => {
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'ftp://example.com/']) {
      const r = await rt.runTool('browser_action', { action: 'navigate', url });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/URLs are not opened: only http and https\.$/);
    }
  });
});

needs('chromium')('the request policy in the browser', () => {
  it('sends no request to an address the settings do not allow, from navigation or from a page', async () => {
    const other = await servePages({ '/': '<h1>other</h1>', '/pixel.png': 'x' }, '127.0.0.2');
    const site = await servePages({
      '/': `<title>Main</title><h1>Main</h1><img src="${other.url}/pixel.png"><script>fetch('${other.url}/api').catch(() => {})</script>`,
    });
    const rt = browserRuntime();
    try {
      const page = await rt.runTool('browser_action', { action: 'navigate', url: `${site.url}/` });
      expect(page.isError, page.text).toBe(false);
      const direct = await rt.runTool('browser_action', { action: 'navigate', url: `${other.url}/` });
      expect(direct.isError).toBe(true);
      expect(direct.text).toContain('refused by the request policy');
      const log = await rt.runTool('browser_action', { action: 'network' });
      expect(log.text).toMatch(
        /BLOCKED http:\/\/127\.0\.0\.2:\d+\/pixel\.png — 127\.0\.0\.2 is a loopback address; refused/,
      );
      expect(other.requests).toEqual([]);
    } finally {
      await rt.dispose();
      await site.close();
      await other.close();
    }
  });

  it('sends no request to a host a deny rule names, even from a page it may load', async () => {
    const other = await servePages({ '/pixel.png': 'x' }, '127.0.0.2');
    const site = await servePages({ '/': `<h1>Main</h1><img src="${other.url}/pixel.png">` });
    const rt = browserRuntime({ permissions: { deny: ['browser_action(127.0.0.2)'] } }, ['127.0.0.0/8']);
    try {
      const page = await rt.runTool('browser_action', { action: 'navigate', url: `${site.url}/` });
      expect(page.isError, page.text).toBe(false);
      const log = await rt.runTool('browser_action', { action: 'network' });
      expect(log.text).toMatch(/BLOCKED .*pixel\.png — refused by a permission rule/);
      expect(other.requests).toEqual([]);
    } finally {
      await rt.dispose();
      await site.close();
      await other.close();
    }
  });

  it('goes out only through lathe’s proxy, to the address lathe resolved (no second lookup to rebind)', async () => {
    const site = await servePages({ '/': '<title>Pinned</title><h1>pinned</h1>' });
    // Chromium cannot resolve `pinned.test`; only lathe's resolver knows it.
    const session = new BrowserSession({
      settings: DEFAULT_BROWSER_SETTINGS,
      policy: { allow: ['127.0.0.1'], resolve: tableResolver({ 'pinned.test': ['127.0.0.1'] }) },
    });
    try {
      const { page } = await session.page();
      await page.goto(`http://pinned.test:${new URL(site.url).port}/`);
      expect(await page.title()).toBe('Pinned');
      expect(site.requests.map((r) => r.host)).toContain(`pinned.test:${new URL(site.url).port}`);
    } finally {
      await session.close();
      await site.close();
    }
  });

  it('asks before evaluate runs script in the page, and runs nothing when no one can answer', async () => {
    const site = await servePages({ '/': '<h1>x</h1>' });
    const rt = browserRuntime();
    try {
      await rt.runTool('browser_action', { action: 'navigate', url: `${site.url}/` });
      const r = await rt.runTool('browser_action', {
        action: 'evaluate',
        expression: 'document.title = "changed"',
      });
      expect(r.isError).toBe(true);
      expect(r.permissionDenial?.reason).toContain('evaluate runs JavaScript in the page');
      const snapshot = await rt.runTool('browser_action', { action: 'snapshot', full: true });
      expect(snapshot.text).not.toContain('changed');
    } finally {
      await rt.dispose();
      await site.close();
    }
  });
});

needs('chromium')('the browser process', () => {
  it('is relaunched on the next action after it was killed, and the result says so', async () => {
    const site = await servePages({ '/': '<title>A</title><h1>Alive</h1>' });
    const before = new Set(chromiumChildren());
    const rt = browserRuntime();
    try {
      await rt.runTool('browser_action', { action: 'navigate', url: `${site.url}/` });
      const started = chromiumChildren().filter((pid) => !before.has(pid));
      expect(started.length).toBeGreaterThan(0);
      for (const pid of started) process.kill(pid, 'SIGKILL');
      await eventually(() => chromiumChildren().every((pid) => !started.includes(pid)));
      const r = await rt.runTool('browser_action', { action: 'navigate', url: `${site.url}/` });
      expect(r.isError, r.text).toBe(false);
      expect(r.text).toMatch(/^The browser had stopped \(it crashed or was killed\); a new one was launched/);
      expect(r.text).toContain('heading "Alive"');
    } finally {
      await rt.dispose();
      await site.close();
    }
  });

  it('says it starts Chromium while the first action waits for it, and nothing after', async () => {
    const site = await servePages({ '/': '<title>A</title><h1>Alive</h1>' });
    const rt = browserRuntime();
    const waits: string[] = [];
    const act = async (input: Record<string, unknown>) => {
      const execution = rt.createExecution({ progress: (message) => waits.push(message) });
      execution.add({ id: `call_${waits.length}`, name: 'browser_action', input });
      execution.close();
      for await (const { result } of execution.results()) return result;
    };
    try {
      expect((await act({ action: 'console' }))?.isError).toBe(false);
      expect(waits).toEqual([]);
      expect((await act({ action: 'navigate', url: `${site.url}/` }))?.text).toContain('heading "Alive"');
      expect((await act({ action: 'snapshot' }))?.isError).toBe(false);
      expect(waits).toEqual(['starting Chromium…']);
    } finally {
      await rt.dispose();
      await site.close();
    }
  });

  it('is closed when the runtime is disposed', async () => {
    const site = await servePages({ '/': '<h1>x</h1>' });
    const before = new Set(chromiumChildren());
    const rt = browserRuntime();
    await rt.runTool('browser_action', { action: 'navigate', url: `${site.url}/` });
    expect(chromiumChildren().some((pid) => !before.has(pid))).toBe(true);
    await rt.dispose();
    await eventually(() => chromiumChildren().every((pid) => before.has(pid)));
    await site.close();
  });

  testNeeds('chromium')(
    'drives the full browser too, when browser.executablePath names it rather than a headless shell',
    async () => {
      const full = execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
      const site = await servePages({ '/': '<title>Full</title><h1>Full browser</h1>' });
      const rt = browserRuntime({ browser: { executablePath: full } });
      try {
        const r = await rt.runTool('browser_action', { action: 'navigate', url: `${site.url}/` });
        expect(r.isError, r.text).toBe(false);
        expect(r.text).toContain('heading "Full browser"');
      } finally {
        await rt.dispose();
        await site.close();
      }
    },
  );

  it('says in one line when there is no Chromium to run', async () => {
    const rt = browserRuntime({ browser: { executablePath: '/nonexistent/chromium' } });
    try {
      const r = await rt.runTool('browser_action', { action: 'launch' });
      expect(r.isError).toBe(true);
      expect(r.text.split('\n')).toHaveLength(1);
      expect(r.text).toBe(
        'browser.executablePath /nonexistent/chromium is not a program that can be run: fix the setting, or remove it to use the chromium on PATH',
      );
    } finally {
      await rt.dispose();
    }
  });
});
