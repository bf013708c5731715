import { z } from 'zod';
import { BROWSER_ACTIONS } from '../../browser/action_names.js';
import type { BrowserAction } from '../../browser/actions.js';
import type { BrowserSession } from '../../browser/session.js';
import type { PermissionEngine } from '../../permission/types.js';
import { buildTool } from '../../tool/build_tool.js';
import type { BrowserHost } from '../../tool/context/browser.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import type { ToolContext, ToolOutput } from '../../tool/types.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    action: z
      .enum(BROWSER_ACTIONS)
      .describe(
        'launch (optional url), navigate (url), back, click / hover (ref, or x and y), type (text into ref or x,y; submit presses Enter), press (key, optional ref), select (ref, values), scroll (direction and amount, or ref), wait (text or selector, timeout), snapshot (find, full), screenshot (full_page), console, network, evaluate (expression), close',
      ),
    url: z.string().optional().describe('http(s) URL for launch and navigate'),
    ref: z.string().optional().describe('An element reference from the snapshot, such as e12'),
    x: z.number().optional().describe('Viewport x in pixels, as a screenshot shows it'),
    y: z.number().optional().describe('Viewport y in pixels'),
    text: z.string().optional().describe('What to type, or the text to wait for'),
    submit: z.boolean().optional().describe('type: press Enter afterwards'),
    key: z.string().optional().describe('press: a key such as Enter, Tab, ArrowDown, Control+A'),
    values: z.array(z.string()).optional().describe('select: the option values or labels to choose'),
    direction: z.enum(['up', 'down', 'left', 'right']).optional(),
    amount: z.number().int().positive().optional().describe('scroll: pixels (default most of a screen)'),
    selector: z.string().optional().describe('wait: a CSS selector to wait for'),
    timeout: z
      .number()
      .positive()
      .max(60)
      .optional()
      .describe('Seconds to wait for an element or text (default 10)'),
    find: z
      .string()
      .optional()
      .describe('snapshot: only the nodes whose line holds this text, with their parents'),
    full: z.boolean().optional().describe('snapshot: the whole tree even when only part of it changed'),
    full_page: z.boolean().optional().describe('screenshot: the whole page, not just the viewport'),
    expression: z
      .string()
      .optional()
      .describe('evaluate: JavaScript run in the page; its value comes back as JSON'),
  }),
);
type Input = z.infer<typeof inputSchema>;

/** Actions that only look: they change nothing on the page or anywhere else. */
const LOOKING = new Set(['snapshot', 'screenshot', 'console', 'network', 'wait', 'close']);

function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '') || undefined;
  } catch {
    return undefined;
  }
}

/** A deny rule for the host (`browser_action(example.com)`) refuses every request to it, not only navigations. */
function denyRuleReason(permissions: PermissionEngine, host: string): string | undefined {
  const decision = permissions.decide({
    tool: 'browser_action',
    readOnly: true,
    subject: { kind: 'browser', subjects: [host] },
    strictPlanRefused: false,
  });
  return decision.behavior === 'deny' ? `refused by a permission rule (${decision.reason})` : undefined;
}

/** The browser's code, loaded at the first action: a session that never uses it does not pay for it. */
const browserCode = async () => {
  const [actions, launch, session] = await Promise.all([
    import('../../browser/actions.js'),
    import('../../browser/launch.js'),
    import('../../browser/session.js'),
  ]);
  return { ...actions, ...launch, ...session };
};
type BrowserCode = Awaited<ReturnType<typeof browserCode>>;

function sessionOf(ctx: ToolContext, host: BrowserHost, code: BrowserCode): BrowserSession {
  return host.shared(
    () =>
      new code.BrowserSession({
        settings: host.settings,
        policy: { allow: host.allow, hostRefused: (name) => denyRuleReason(ctx.permissions, name) },
      }),
  );
}

/** One line for a failure from Playwright: what went wrong, never its call log or stack. */
function describeFailure(error: unknown, code: BrowserCode): string {
  if (error instanceof code.ActionError || error instanceof code.BrowserLaunchError) return error.message;
  const message = ((error as Error).message ?? String(error)).split('\n')[0].replace(/^\w+\.\w+: /, '');
  if (/Target .*closed|has been closed/i.test(message))
    return `The browser or page closed during the action (${message}); the next action opens a new one.`;
  if ((error as Error).name === 'TimeoutError') return `Timed out: ${message}`;
  return `The browser action failed: ${message}`;
}

export const browserAction = buildTool({
  name: 'browser_action',
  deferred: true,
  inputSchema,
  description:
    'Drive a headless Chromium: open pages, click, type, read them. One browser per session, launched on the first action. ' +
    'After each action you get an accessibility snapshot: one line per element with a reference like [e12] that ' +
    'click, type, hover, select and scroll take as ref; later snapshots show only what changed (full: true for the whole ' +
    'tree). Snapshots are capped at 8,000 tokens: use find to see only matching elements. Use screenshot to see the ' +
    'page (x and y in it are viewport pixels). console and network give the logs since you last looked. evaluate runs ' +
    'JavaScript in the page and always asks the user first. Requests to private or local addresses are refused unless ' +
    'settings allow them. Prefer web_fetch to read a page that needs no interaction.',
  liteDescription: 'Drive a headless browser: navigate, click or type by snapshot reference, screenshot.',
  availability: { profiles: ['standard'], feature: 'browser', needs: ['browserUse'] },
  kind: 'fetch',
  userFacingName: () => 'Browser',
  detail: (input) => {
    const what = input.url ?? input.ref ?? (input.x !== undefined ? `(${input.x}, ${input.y})` : '');
    return what ? `${input.action} ${what}` : input.action;
  },
  // lathe's own fact: looking at a page changes nothing of the workspace.
  planModeAllowed: (input) => LOOKING.has(input.action),
  // Going to a site asks by host (rules `browser_action(example.com)`); acting on the page the
  // user let it open does not ask again, and every request it makes passes the request policy.
  permissionSubject: (input) => {
    const host = hostOf(input.url);
    return host ? { kind: 'browser', subjects: [host] } : { kind: 'none' };
  },
  checkPermissions: (input) =>
    input.action === 'evaluate'
      ? { behavior: 'ask', reason: 'evaluate runs JavaScript in the page', category: 'browser' }
      : { behavior: 'allow' },
  validateInput(input) {
    if ((input.action === 'navigate' || input.url !== undefined) && !input.url) return 'navigate needs url.';
    if (input.url !== undefined) {
      let url: URL;
      try {
        url = new URL(input.url);
      } catch {
        return `"${input.url}" is not a valid URL: give an absolute http(s) URL such as https://example.com/.`;
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        return `${url.protocol} URLs are not opened: only http and https.`;
    }
    if ((input.x === undefined) !== (input.y === undefined)) return 'Give both x and y, or neither.';
    return undefined;
  },
  async call(input: Input, ctx): Promise<ToolOutput> {
    if (!ctx.browser) return { isError: true, text: 'No browser is available in this session.' };
    const code = await browserCode();
    const session = sessionOf(ctx, ctx.browser, code);
    if (code.launchesBrowser(session, input.action)) {
      const { mode, cdpUrl } = ctx.browser.settings;
      ctx.progress?.(mode === 'cdp' ? `attaching to the browser at ${cdpUrl}…` : 'starting Chromium…');
    }
    const aborted = new Promise<never>((_, reject) => {
      if (ctx.signal.aborted) reject(new code.ActionError('Interrupted.'));
      ctx.signal.addEventListener('abort', () => reject(new code.ActionError('Interrupted.')), {
        once: true,
      });
    });
    aborted.catch(() => {});
    try {
      const result = await Promise.race([code.runBrowserAction(session, input as BrowserAction), aborted]);
      return { text: result.text, ...(result.image ? { images: [result.image] } : {}) };
    } catch (error) {
      return { isError: true, text: describeFailure(error, code) };
    }
  },
});
