import type { ServerSpec } from './server_table.js';

/** What a call waiting on a language server says it waits for (the UI shows it after a second). */
export type WaitReport = (message: string) => void;

/** The server as its user knows it: its program's name (`typescript-language-server`), else its table name. */
export const serverName = (spec: Pick<ServerSpec, 'name' | 'program'>): string => spec.program ?? spec.name;

/** What an answer of each request is, in a few words; other methods are named as they are. */
const ANSWERS: Record<string, string> = {
  'textDocument/definition': 'the definition',
  'textDocument/typeDefinition': 'the type definition',
  'textDocument/implementation': 'the implementations',
  'textDocument/hover': 'hover information',
  'textDocument/references': 'references',
  'textDocument/documentSymbol': "the file's symbols",
  'workspace/symbol': 'workspace symbols',
  'textDocument/prepareCallHierarchy': 'the call hierarchy',
  'callHierarchy/incomingCalls': 'incoming calls',
  'callHierarchy/outgoingCalls': 'outgoing calls',
  'textDocument/rename': "the rename's edits",
};

/** `asking typescript-language-server for references…` */
export function askingFor(spec: Pick<ServerSpec, 'name' | 'program'>, method: string): string {
  return `asking ${serverName(spec)} for ${ANSWERS[method] ?? method}…`;
}

/** `starting gopls…`, or `restarting gopls after a crash…`; undefined when it is up. */
export function startingText(entry: {
  spec: Pick<ServerSpec, 'name' | 'program'>;
  state: string;
  connection?: { alive: boolean };
}): string | undefined {
  if (entry.connection?.alive) return undefined;
  const name = serverName(entry.spec);
  return entry.state === 'restarting' ? `restarting ${name} after a crash…` : `starting ${name}…`;
}

/** While an edit waits for its files' diagnostics. */
export const CHECKING_DIAGNOSTICS = 'checking diagnostics…';
