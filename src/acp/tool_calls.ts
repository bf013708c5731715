import { isAbsolute, resolve } from 'node:path';
import type { ToolKind as AcpToolKind, ToolCallLocation } from '@agentclientprotocol/sdk';
import { callLabel } from '../tool/call_label.js';
import { NO_FACTS } from '../tool/facts.js';
import type { Tool, ToolContext, ToolKind } from '../tool/types.js';
import { builtinTool } from '../tools/index.js';

/** The folders a session's calls are relative to. */
export interface CallFolders {
  cwd: string;
  workspace: string;
}

/** lathe's kinds are the protocol's, plus two of its own that editors show as `other`. */
export function acpKind(kind: ToolKind | undefined): AcpToolKind {
  return kind === undefined || kind === 'conversation' || kind === 'agent' ? 'other' : kind;
}

/** The declaration of a tool by name (built-in tools; others are shown by their name). */
export const declaredTool = (name: string): Tool | undefined => builtinTool(name);

/** `Read /abs/src/a.ts:10+20`, `Run npm test`: the call's label, every path absolute. */
export function callTitle(name: string, input: unknown, folders: CallFolders): string {
  const { verb, detail } = callLabel(declaredTool(name), name, input, (path) => absolute(path, folders));
  return detail ? `${verb} ${detail}` : verb;
}

/**
 * The files a call reads or changes, absolute: those it declares it changes, else the paths the
 * permission engine judges it by. None when the input is not one the tool can read.
 */
export function callLocations(name: string, input: unknown, folders: CallFolders): ToolCallLocation[] {
  const tool = declaredTool(name);
  if (!tool || input === null || typeof input !== 'object') return [];
  try {
    const paths = tool.touchedPaths
      ? tool.touchedPaths(input, folders)
      : (tool.permissionSubject(input, folders as ToolContext, NO_FACTS).paths ?? []);
    return [...new Set(paths.map((path) => absolute(path, folders)))].map((path) => ({ path }));
  } catch {
    return [];
  }
}

function absolute(path: string, folders: CallFolders): string {
  return isAbsolute(path) ? path : resolve(folders.cwd, path);
}
