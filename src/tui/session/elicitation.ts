import { openBrowser } from '../../mcp/auth/browser.js';
import type { ElicitationAnswer, ElicitationRequest } from '../../mcp/elicitation.js';
import type { Line } from '../render/style.js';
import { sanitize } from '../render/width.js';
import type { UiStore } from '../state/store.js';
import { notice } from './notice.js';

/**
 * Asks the user what an MCP server's `elicitation/create` wants: a form to fill in, or a link to
 * open in the browser. A request the server gives up on (or an interrupt) takes the prompt away
 * as cancelled.
 */
export async function elicitInUi(
  store: UiStore,
  request: ElicitationRequest,
  signal: AbortSignal,
): Promise<ElicitationAnswer> {
  if (request.mode === 'form') {
    const { server, message, fields } = request;
    return store.ask({ kind: 'form', server, message, fields, cancelValue: { action: 'cancel' } }, signal);
  }
  const host = hostOf(request.url);
  store.add({ kind: 'panel', lines: linkLines(request, host) });
  const choice = await store.ask<string | undefined>(
    {
      kind: 'pick',
      title: `Open this link (${sanitize(host)}) in your browser?`,
      choices: [
        { label: 'Open it', value: 'open', hint: `goes to ${host}` },
        { label: 'Decline', value: 'decline' },
        { label: 'Cancel', value: 'cancel' },
      ],
      cancelValue: 'cancel',
    },
    signal,
  );
  if (choice === 'cancel') return { action: 'cancel' };
  if (choice !== 'open') return { action: 'decline' };
  if (!(await openBrowser(request.url)))
    store.add(notice(`Could not start a browser: open ${request.url} yourself.`, 'warn'));
  void request.completed.then(() =>
    store.add(notice(`MCP server "${request.server}": the link's step is complete.`)),
  );
  return { action: 'accept' };
}

/** The host a link goes to, as the user should check it; the whole link when it has none. */
function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

function linkLines(request: Extract<ElicitationRequest, { mode: 'url' }>, host: string): Line[] {
  // The server's words are its own: no control characters reach the terminal.
  return [
    [{ text: `MCP server "${request.server}" asks you to open a link`, style: { bold: true } }],
    ...request.message.split('\n').map((line): Line => [{ text: `  ${sanitize(line)}` }]),
    [{ text: `  ${sanitize(request.url)}`, style: { color: 'accent' } }],
    [
      { text: '  It goes to ', style: { color: 'muted' } },
      { text: sanitize(host), style: { bold: true } },
    ],
  ];
}
