import type { ElementHandle, Page } from 'playwright-core';
import { ACCESSIBILITY_TREE_SCRIPT, ELEMENT_BY_REF_SCRIPT } from './accessibility_script.js';
import type { BrowserActionName } from './action_names.js';
import type { BrowserSession } from './session.js';
import { filterTree, renderCapped, type TreeLine, treeDelta } from './snapshot.js';

export interface BrowserAction {
  action: BrowserActionName;
  url?: string;
  ref?: string;
  x?: number;
  y?: number;
  text?: string;
  submit?: boolean;
  key?: string;
  values?: string[];
  direction?: 'up' | 'down' | 'left' | 'right';
  amount?: number;
  selector?: string;
  timeout?: number;
  find?: string;
  full?: boolean;
  full_page?: boolean;
  expression?: string;
}

export interface ActionResult {
  text: string;
  isError?: boolean;
  image?: { mediaType: string; data: string };
}

/** A failure the model can act on; its message is the whole result. */
export class ActionError extends Error {}

/** Characters of an evaluate result kept. */
const EVALUATE_CHARS = 10_000;

/** The element a snapshot reference names, or an error saying what to do instead. */
async function elementOf(page: Page, ref: string): Promise<ElementHandle> {
  const handle = await page.evaluateHandle(`(${ELEMENT_BY_REF_SCRIPT})(${JSON.stringify(ref)})`);
  const element = handle.asElement();
  if (element) return element as ElementHandle;
  const why = await handle.jsonValue().catch(() => 'unknown');
  await handle.dispose();
  if (why === 'gone') throw new ActionError(`Element ${ref} is no longer on the page: take a new snapshot.`);
  if (why === 'unknown')
    throw new ActionError(
      `Unknown element reference ${ref}: take a snapshot and use one of its [e…] references.`,
    );
  throw new ActionError(`Element ${ref} cannot be found: ${why}; take a snapshot first.`);
}

/** The action's target: an element by reference, or a point by coordinates. */
async function target(page: Page, input: BrowserAction): Promise<ElementHandle | { x: number; y: number }> {
  if (input.ref) return elementOf(page, input.ref);
  if (input.x !== undefined && input.y !== undefined) return { x: input.x, y: input.y };
  throw new ActionError(`${input.action} needs ref (from a snapshot) or x and y (from a screenshot).`);
}

const isPoint = (t: ElementHandle | { x: number; y: number }): t is { x: number; y: number } => 'x' in t;

/** The tree as lines, read in the page. */
async function readTree(page: Page): Promise<TreeLine[]> {
  return JSON.parse((await page.evaluate(ACCESSIBILITY_TREE_SCRIPT)) as string) as TreeLine[];
}

/**
 * The snapshot text: the whole tree (capped), the nodes matching `find`, or, after an earlier
 * snapshot of the same page, only what changed.
 */
export async function snapshotText(
  session: BrowserSession,
  page: Page,
  options: { find?: string; full?: boolean } = {},
): Promise<string> {
  const lines = await readTree(page);
  const url = page.url();
  const title = await page.title().catch(() => '');
  const header = `Page: ${title ? `${JSON.stringify(title)} ` : ''}${url}`;
  const previous = session.lastTree;
  session.lastTree = { url, lines };
  if (options.find) {
    const found = filterTree(lines, options.find);
    if (found.length === 0) return `${header}\nNothing on the page matches "${options.find}".`;
    return `${header}\nNodes matching "${options.find}":\n${await renderCapped(found)}`;
  }
  if (!options.full && previous?.url === url) {
    const delta = treeDelta(previous.lines, lines);
    if (delta.length === 0) return `${header}\nNo changes since the last snapshot.`;
    if (delta.length < lines.length)
      return `${header}\nChanges since the last snapshot (pass full: true for the whole tree):\n${await renderCapped(delta)}`;
  }
  if (lines.length === 0) return `${header}\n(the page shows nothing)`;
  return `${header}\n${await renderCapped(lines)}`;
}

async function navigate(page: Page, url: string): Promise<string> {
  try {
    const response = await page.goto(url, { waitUntil: 'domcontentloaded' });
    return response && response.status() >= 400 ? ` (HTTP ${response.status()})` : '';
  } catch (error) {
    const message = (error as Error).message.split('\n')[0];
    if (message.includes('ERR_BLOCKED_BY_CLIENT'))
      throw new ActionError(`Navigation to ${url} was refused by the request policy; see the network log.`);
    throw new ActionError(`Navigation to ${url} failed: ${message.replace(/^page\.goto: /, '')}`);
  }
}

/** The actions that need no page, so never launch the browser. */
const PAGELESS: ReadonlySet<string> = new Set(['close', 'console', 'network']);

/** Whether the action waits for the browser to be launched (or attached to) first. */
export const launchesBrowser = (session: BrowserSession, action: string): boolean =>
  !session.running && !PAGELESS.has(action);

/** Runs one action on the session's page; the result says what happened and what the page shows now. */
export async function runBrowserAction(session: BrowserSession, input: BrowserAction): Promise<ActionResult> {
  if (input.action === 'close') {
    const was = session.running;
    await session.close();
    return { text: was ? 'Browser closed.' : 'No browser was running.' };
  }
  if (input.action === 'console' || input.action === 'network') {
    const log = input.action === 'console' ? session.console : session.network;
    const { lines, dropped } = log.take();
    const more = dropped > 0 ? `\n(${dropped} earlier lines were dropped)` : '';
    if (lines.length === 0) return { text: `No ${input.action} messages since the last look.${more}` };
    return { text: `${input.action} since the last look:\n${lines.join('\n')}${more}` };
  }
  let { page, notice } = await session.page();
  let result: ActionResult;
  try {
    result = await act(session, page, input);
  } catch (error) {
    // The browser died under the action: once more, in a new one.
    if (!(await session.noticeLost())) throw error;
    ({ page, notice } = await session.page());
    result = await act(session, page, input).catch((again: unknown) => {
      throw again instanceof ActionError && notice ? new ActionError(`${notice}\n${again.message}`) : again;
    });
  }
  return notice ? { ...result, text: `${notice}\n${result.text}` } : result;
}

async function act(session: BrowserSession, page: Page, input: BrowserAction): Promise<ActionResult> {
  const timeoutMs = (input.timeout ?? 10) * 1000;
  const after = async (done: string) => ({ text: `${done}\n${await snapshotText(session, page)}` });
  switch (input.action) {
    case 'launch':
      if (input.url) return after(`Browser launched; opened ${input.url}${await navigate(page, input.url)}.`);
      return { text: 'Browser launched with a blank page: navigate to open a URL.' };
    case 'navigate': {
      if (!input.url) throw new ActionError('navigate needs url.');
      return after(`Opened ${input.url}${await navigate(page, input.url)}.`);
    }
    case 'back':
      await page.goBack({ waitUntil: 'domcontentloaded' });
      return after('Went back.');
    case 'click': {
      const at = await target(page, input);
      if (isPoint(at)) await page.mouse.click(at.x, at.y);
      else await at.click({ timeout: timeoutMs });
      await page.waitForLoadState('domcontentloaded').catch(() => {});
      return after(`Clicked ${input.ref ?? `(${input.x}, ${input.y})`}.`);
    }
    case 'type': {
      if (input.text === undefined) throw new ActionError('type needs text.');
      const at = await target(page, input);
      if (isPoint(at)) {
        await page.mouse.click(at.x, at.y);
        await page.keyboard.type(input.text);
      } else await at.fill(input.text, { timeout: timeoutMs });
      if (input.submit) {
        await page.keyboard.press('Enter');
        await page.waitForLoadState('domcontentloaded').catch(() => {});
      }
      return after(
        `Typed into ${input.ref ?? `(${input.x}, ${input.y})`}${input.submit ? ' and pressed Enter' : ''}.`,
      );
    }
    case 'press': {
      if (!input.key) throw new ActionError('press needs key (Enter, Tab, ArrowDown, Control+A …).');
      if (input.ref) await (await elementOf(page, input.ref)).press(input.key, { timeout: timeoutMs });
      else await page.keyboard.press(input.key);
      await page.waitForLoadState('domcontentloaded').catch(() => {});
      return after(`Pressed ${input.key}.`);
    }
    case 'hover': {
      const at = await target(page, input);
      if (isPoint(at)) await page.mouse.move(at.x, at.y);
      else await at.hover({ timeout: timeoutMs });
      return after(`Hovered over ${input.ref ?? `(${input.x}, ${input.y})`}.`);
    }
    case 'select': {
      if (!input.ref || !input.values?.length) throw new ActionError('select needs ref and values.');
      const chosen = await (await elementOf(page, input.ref)).selectOption(input.values, {
        timeout: timeoutMs,
      });
      return after(`Selected ${chosen.join(', ') || 'nothing'} in ${input.ref}.`);
    }
    case 'scroll':
      return scroll(page, input, timeoutMs, after);
    case 'wait':
      return waitFor(page, input, timeoutMs, after);
    case 'snapshot':
      return { text: await snapshotText(session, page, { find: input.find, full: input.full }) };
    case 'screenshot':
      return screenshot(page, input);
    case 'evaluate':
      return evaluate(page, input);
    default:
      throw new ActionError(`Unknown action ${input.action}.`);
  }
}

/** What an action returns after it: its line and the snapshot the page shows now. */
type After = (done: string) => Promise<ActionResult>;

async function scroll(
  page: Page,
  input: BrowserAction,
  timeoutMs: number,
  after: After,
): Promise<ActionResult> {
  if (input.ref) {
    await (await elementOf(page, input.ref)).scrollIntoViewIfNeeded({ timeout: timeoutMs });
    return after(`Scrolled ${input.ref} into view.`);
  }
  const amount = input.amount ?? Math.round((page.viewportSize()?.height ?? 800) * 0.8);
  const direction = input.direction ?? 'down';
  const dx = direction === 'left' ? -amount : direction === 'right' ? amount : 0;
  const dy = direction === 'up' ? -amount : direction === 'down' ? amount : 0;
  await page.mouse.wheel(dx, dy);
  return after(`Scrolled ${direction} by ${amount} px.`);
}

/** Waits for text, a selector or a quiet network, whichever the input names. */
async function waitFor(
  page: Page,
  input: BrowserAction,
  timeoutMs: number,
  after: After,
): Promise<ActionResult> {
  const seconds = timeoutMs / 1000;
  try {
    if (input.text) await page.getByText(input.text).first().waitFor({ timeout: timeoutMs });
    else if (input.selector) await page.waitForSelector(input.selector, { timeout: timeoutMs });
    else await page.waitForLoadState('networkidle', { timeout: timeoutMs });
  } catch (error) {
    if ((error as Error).name !== 'TimeoutError') throw error;
    const what = input.text
      ? `text "${input.text}"`
      : input.selector
        ? `selector ${input.selector}`
        : 'a quiet network';
    throw new ActionError(`Waited ${seconds} s for ${what}; it did not come.`);
  }
  return after(
    input.text
      ? `"${input.text}" is on the page.`
      : input.selector
        ? `${input.selector} is on the page.`
        : 'The network is quiet.',
  );
}

async function screenshot(page: Page, input: BrowserAction): Promise<ActionResult> {
  const data = await page.screenshot({ type: 'jpeg', quality: 75, fullPage: input.full_page ?? false });
  const size = page.viewportSize();
  return {
    text: `Screenshot of ${page.url()}${size ? ` (viewport ${size.width}×${size.height})` : ''}; coordinates in it are what click, hover and type take as x and y.`,
    image: { mediaType: 'image/jpeg', data: data.toString('base64') },
  };
}

/** Runs the input's JavaScript in the page; the result is its value as JSON, capped. */
async function evaluate(page: Page, input: BrowserAction): Promise<ActionResult> {
  if (!input.expression) throw new ActionError('evaluate needs expression (JavaScript run in the page).');
  let value: unknown;
  try {
    value = await page.evaluate(input.expression);
  } catch (error) {
    throw new ActionError(
      `The script failed: ${(error as Error).message.split('\n')[0].replace(/^page\.evaluate: /, '')}`,
    );
  }
  const text = value === undefined ? 'undefined' : (JSON.stringify(value, null, 2) ?? String(value));
  return {
    text:
      text.length > EVALUATE_CHARS
        ? `${text.slice(0, EVALUATE_CHARS)}\n… (${text.length - EVALUATE_CHARS} more characters)`
        : text,
  };
}
