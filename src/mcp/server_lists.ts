import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** A tool as its server lists it. */
export interface RemoteTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; title?: string };
}

/** A prompt as its server lists it: the user runs it as `/server:prompt args`. */
export interface RemotePrompt {
  name: string;
  description: string;
  arguments: Array<{ name: string; description?: string; required: boolean }>;
}

/** A resource as its server lists it: the user mentions it as `@server:uri`. */
export interface RemoteResource {
  uri: string;
  name: string;
  mimeType?: string;
  description?: string;
}

/** What a server offers, each list kept up to date by its `list_changed` notification. */
export interface ServerLists {
  tools: RemoteTool[];
  prompts: RemotePrompt[];
  resources: RemoteResource[];
}

export type ListKind = keyof ServerLists;

export const emptyLists = (): ServerLists => ({ tools: [], prompts: [], resources: [] });

type Types = typeof import('@modelcontextprotocol/sdk/types.js');

/** Every page of a paginated list. */
async function allPages<T>(
  page: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string }>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const next = await page(cursor);
    items.push(...next.items);
    cursor = next.nextCursor;
  } while (cursor);
  return items;
}

/** One of a server's lists; empty for what the server does not offer (a server of resources only has no tools). */
export async function fetchList<K extends ListKind>(
  client: Client,
  kind: K,
  timeout: number,
): Promise<ServerLists[K]> {
  const capabilities = client.getServerCapabilities();
  if (!capabilities?.[kind]) return [];
  const params = (cursor?: string) => (cursor ? { cursor } : undefined);
  switch (kind) {
    case 'tools':
      return (await allPages(async (cursor) => {
        const page = await client.listTools(params(cursor), { timeout });
        return { items: page.tools.map(remoteTool), nextCursor: page.nextCursor };
      })) as ServerLists[K];
    case 'prompts':
      return (await allPages(async (cursor) => {
        const page = await client.listPrompts(params(cursor), { timeout });
        return { items: page.prompts.map(remotePrompt), nextCursor: page.nextCursor };
      })) as ServerLists[K];
    default:
      return (await allPages(async (cursor) => {
        const page = await client.listResources(params(cursor), { timeout });
        return { items: page.resources.map(remoteResource), nextCursor: page.nextCursor };
      })) as ServerLists[K];
  }
}

/** Every list at once (at connect). */
export async function fetchLists(client: Client, timeout: number): Promise<ServerLists> {
  const [tools, prompts, resources] = await Promise.all([
    fetchList(client, 'tools', timeout),
    // A server whose prompts or resources fail to list still offers its tools.
    fetchList(client, 'prompts', timeout).catch(() => []),
    fetchList(client, 'resources', timeout).catch(() => []),
  ]);
  return { tools, prompts, resources };
}

/** Calls `changed` with the list a server says has changed. */
export function watchLists(client: Client, types: Types, changed: (kind: ListKind) => void): void {
  client.setNotificationHandler(types.ToolListChangedNotificationSchema, () => changed('tools'));
  client.setNotificationHandler(types.PromptListChangedNotificationSchema, () => changed('prompts'));
  client.setNotificationHandler(types.ResourceListChangedNotificationSchema, () => changed('resources'));
}

type Listed<M extends 'listTools' | 'listPrompts' | 'listResources'> = Awaited<ReturnType<Client[M]>>;

function remoteTool(t: Listed<'listTools'>['tools'][number]): RemoteTool {
  return {
    name: t.name,
    description: t.description ?? t.title ?? '',
    inputSchema: t.inputSchema as Record<string, unknown>,
    annotations: t.annotations,
  };
}

function remotePrompt(p: Listed<'listPrompts'>['prompts'][number]): RemotePrompt {
  return {
    name: p.name,
    description: p.description ?? p.title ?? '',
    arguments: (p.arguments ?? []).map((a) => ({
      name: a.name,
      ...(a.description ? { description: a.description } : {}),
      required: a.required === true,
    })),
  };
}

function remoteResource(r: Listed<'listResources'>['resources'][number]): RemoteResource {
  return {
    uri: r.uri,
    name: r.name,
    ...(r.mimeType ? { mimeType: r.mimeType } : {}),
    ...(r.description ? { description: r.description } : {}),
  };
}
