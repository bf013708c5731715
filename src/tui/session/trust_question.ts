import { declineFolder, needsTrust, trustFolder, trustNotice, wasDeclined } from '../../config/trust.js';
import type { Runtime } from '../../runtime/create_runtime.js';
import type { Line } from '../render/style.js';
import type { UiStore } from '../state/store.js';

const GRAY = { color: 'muted' } as const;

/** What the folder wants, as the question shows it: the commands it would run, the settings it would loosen. */
function wantedLines(runtime: Runtime): Line[] {
  const { mcpServers, settings } = runtime.trust;
  const lines: Line[] = [
    [{ text: `This folder is not trusted yet: ${runtime.workspace}`, style: { bold: true } }],
  ];
  if (mcpServers.length > 0) {
    lines.push([{ text: '  It would start these MCP servers (outside the sandbox):', style: GRAY }]);
    for (const s of mcpServers) {
      lines.push([{ text: `    ${s.name}` }, { text: `  ${s.file}`, style: GRAY }]);
      lines.push([{ text: `      ${s.command}` }]);
    }
  }
  if (settings.length > 0) {
    lines.push([{ text: '  Its settings would loosen:', style: GRAY }]);
    for (const item of settings) lines.push([{ text: `    ${item}` }]);
  }
  lines.push([
    { text: '  Until you trust it, only its settings that tighten (deny and ask rules) apply.', style: GRAY },
  ]);
  return lines;
}

/**
 * Settles trust for a folder that carries something needing it: asks once (the answer is kept
 * with the user's settings), or, when the user declined before, says in one line what was left
 * out. Resolves true when the folder has just been trusted (the runtime must then be rebuilt).
 * Undefined when there is nothing to settle, so the caller can go on at once.
 */
export function settleTrust(store: UiStore, runtime: Runtime): Promise<boolean> | undefined {
  if (!needsTrust(runtime.trust)) return undefined;
  const notice = trustNotice(runtime.trust) ?? '';
  if (wasDeclined(runtime.documentsRoot, runtime.workspace)) {
    store.add({ kind: 'notice', tone: 'warn', text: notice });
    return undefined;
  }
  return askToTrust(store, runtime, notice);
}

async function askToTrust(store: UiStore, runtime: Runtime, notice: string): Promise<boolean> {
  store.add({ kind: 'panel', lines: wantedLines(runtime) });
  const answer = await store.ask<string | undefined>({
    kind: 'pick',
    title: 'Trust this folder?',
    choices: [
      { label: 'Yes, trust it', value: 'trust', hint: 'and the folders below it; remembered' },
      { label: 'No', value: 'decline', hint: 'not asked again; lathe trust changes this' },
    ],
    cancelValue: undefined,
  });
  try {
    if (answer === 'trust') {
      const { folder } = trustFolder(runtime.documentsRoot, runtime.workspace);
      store.add({
        kind: 'notice',
        tone: 'info',
        text: `Trusted ${folder}: its MCP servers and settings apply.`,
      });
      return true;
    }
    if (answer === 'decline') declineFolder(runtime.documentsRoot, runtime.workspace);
  } catch (error) {
    store.add({ kind: 'notice', tone: 'error', text: (error as Error).message });
  }
  store.add({ kind: 'notice', tone: 'warn', text: notice });
  return false;
}
