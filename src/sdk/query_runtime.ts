import { resolve } from 'node:path';
import type { SettingsLayer } from '../config/types.js';
import { type Runtime, type RuntimeOptions, runtimePlaces } from '../runtime/create_runtime.js';
import type { EditorAccess } from '../tool/context/editor.js';
import type { Tool } from '../tool/types.js';
import { builtinTool } from '../tools/index.js';
import { programApprovals } from './can_use_tool.js';
import { UsageError } from './errors.js';
import type { HeadlessQueryOptions } from './options.js';
import { programHookGroups } from './program_hooks.js';
import { programMcpServers } from './program_servers.js';

const SESSION_ID = /^\d{8}-\d{6}-[0-9a-f]{6}$/;

/** `sessionId`, checked: it names a new session's folder. */
export function checkedSessionId(id: string | undefined): string | undefined {
  if (id !== undefined && !SESSION_ID.test(id))
    throw new UsageError(`sessionId: "${id}" is not a session id (like 20260101-120000-a1b2c3)`);
  return id;
}

/** `allowedTools` and `disallowedTools` join the settings layer's allow and deny rules. */
function withToolRules(options: HeadlessQueryOptions): SettingsLayer | undefined {
  const { settings, allowedTools = [], disallowedTools = [] } = options;
  if (allowedTools.length === 0 && disallowedTools.length === 0) return settings;
  const permissions = settings?.permissions ?? {};
  return {
    ...settings,
    permissions: {
      ...permissions,
      ...(allowedTools.length ? { allow: [...(permissions.allow ?? []), ...allowedTools] } : {}),
      ...(disallowedTools.length ? { deny: [...(permissions.deny ?? []), ...disallowedTools] } : {}),
    },
  };
}

/** The program's tools, checked: each a tool, none taking a built-in's name or another's. */
function programTools(tools: readonly Tool[] | undefined): Tool[] | undefined {
  if (!tools) return undefined;
  const names = new Set<string>();
  for (const tool of tools) {
    if (typeof tool?.call !== 'function' || typeof tool.name !== 'string')
      throw new UsageError('tools: each entry must be made with tool(name, description, schema, handler)');
    if (builtinTool(tool.name)) throw new UsageError(`tools: "${tool.name}" is the name of a built-in tool`);
    if (names.has(tool.name)) throw new UsageError(`tools: "${tool.name}" is given twice`);
    names.add(tool.name);
  }
  return [...tools];
}

/** The program's `editor`, checked: each part it gives is a function. */
function checkedEditor(editor: EditorAccess): EditorAccess {
  const parts: Array<[string, unknown]> = [
    ['readTextFile', editor.readTextFile],
    ['writeTextFile', editor.writeTextFile],
    ...(editor.terminal !== undefined ? [['terminal.run', editor.terminal?.run] as [string, unknown]] : []),
  ];
  for (const [name, part] of parts)
    if (part !== undefined && typeof part !== 'function')
      throw new UsageError(`editor.${name} must be a function`);
  return editor;
}

/**
 * The runtime options a query stands for, and its MCP servers; the program's parts (tools,
 * hooks, servers) are checked here, before anything starts, so a mistake starts nothing.
 */
export function queryRuntimeOptions(
  options: HeadlessQueryOptions,
  signal: () => AbortSignal,
  made: () => Runtime | undefined = () => undefined,
) {
  const env = options.env ?? process.env;
  const { workspace } = runtimePlaces(options);
  const mcpServers = programMcpServers(options.mcpServers, { workspace, env });
  const editor = options.editor ? checkedEditor(options.editor) : undefined;
  const runtime: RuntimeOptions = {
    cwd: options.cwd,
    profile: options.profile,
    mode: options.mode,
    features: options.features,
    approve: options.approve,
    yolo: options.yolo,
    trust: options.trust,
    settings: withToolRules(options),
    documentsRoot: options.documentsRoot,
    env: options.env,
    jsonSchema: options.jsonSchema !== undefined,
    ...(options.addDirs?.length ? { addDirs: options.addDirs.map((dir) => resolve(dir)) } : {}),
    ...(options.latheBin ? { latheBin: options.latheBin } : {}),
    ...(options.canUseTool
      ? { askUser: programApprovals(options.canUseTool, signal, made, options.stderr ?? reportLine, editor) }
      : {}),
    programTools: programTools(options.tools),
    hookGroups: programHookGroups(options.hooks),
    ...(editor ? { editor } : {}),
  };
  return { runtime, mcpServers };
}

const reportLine = (line: string) => process.stderr.write(`lathe: ${line}\n`);
