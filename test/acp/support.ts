import {
  type ClientContext,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  client,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from '@agentclientprotocol/sdk';
import type { AcpOptions } from '../../src/acp/agent.js';
import { latheAgent } from '../../src/acp/agent.js';
import type { AcpSession } from '../../src/acp/session.js';
import { FakeModelServer, type ScriptedTurn } from '../support/fake_model_server.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

const servers: FakeModelServer[] = [];
const closers: Array<() => Promise<void>> = [];

/** Ends the editors, sessions and fake servers the tests started (in afterEach). */
export async function closeAcp(): Promise<void> {
  await Promise.all(closers.splice(0).map((close) => close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
}

/** How the fake editor answers permission requests: an option kind, or `cancelled`. */
export type Answer = 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always' | 'cancelled';

/**
 * The fake editor: the SDK's client side, keeping every update and permission request it gets and
 * answering the requests with `answer`.
 */
export class FakeEditor {
  readonly updates: SessionNotification[] = [];
  readonly permissions: RequestPermissionRequest[] = [];
  answer: Answer = 'allow_once';
  /** The MCP servers' questions the agent passed on, and the ids of link flows it said were complete. */
  readonly elicitations: CreateElicitationRequest[] = [];
  readonly completedElicitations: string[] = [];
  /** How the editor answers an elicitation. */
  elicitationAnswer: (request: CreateElicitationRequest) => CreateElicitationResponse = () => ({
    action: 'decline',
  });
  /** The editor's open files by absolute path, for agents told it offers `fs/*`. */
  readonly buffers = new Map<string, string>();
  private listeners: Array<() => void> = [];

  readonly app = client({ name: 'fake-editor' })
    .onNotification('session/update', ({ params }) => {
      this.updates.push(params);
      for (const listener of this.listeners.splice(0)) listener();
    })
    .onRequest('session/request_permission', ({ params }): RequestPermissionResponse => {
      this.permissions.push(params);
      if (this.answer === 'cancelled') return { outcome: { outcome: 'cancelled' } };
      const option = params.options.find((o) => o.kind === this.answer) ?? params.options[0];
      return { outcome: { outcome: 'selected', optionId: option.optionId } };
    })
    .onRequest('elicitation/create', ({ params }) => {
      this.elicitations.push(params);
      return this.elicitationAnswer(params);
    })
    .onNotification('elicitation/complete', ({ params }) => {
      this.completedElicitations.push(params.elicitationId);
    })
    .onRequest('fs/read_text_file', ({ params }) => {
      const content = this.buffers.get(params.path);
      if (content === undefined) throw new Error(`${params.path} is not open`);
      return { content };
    })
    .onRequest('fs/write_text_file', ({ params }) => {
      this.buffers.set(params.path, params.content);
      return {};
    });

  /** Resolves once an update matching `test` has come (checked as each arrives). */
  async waitFor(test: (update: SessionNotification) => boolean): Promise<SessionNotification> {
    for (;;) {
      const found = this.updates.find(test);
      if (found) return found;
      await new Promise<void>((resolve) => this.listeners.push(resolve));
    }
  }

  kinds(sessionId: string): string[] {
    return this.updates.filter((u) => u.sessionId === sessionId).map((u) => u.update.sessionUpdate);
  }

  text(sessionId: string, kind = 'agent_message_chunk'): string {
    return this.updates
      .filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === kind)
      .map((u) => {
        const update = u.update as { content?: { type: string; text?: string } };
        return update.content?.type === 'text' ? (update.content.text ?? '') : '';
      })
      .join('');
  }
}

/** A workspace, a lathe home, a fake model server playing `turns`, and the agent's options for them. */
export async function acpSetup(turns: ScriptedTurn[], files: Record<string, string> = {}) {
  const server = await FakeModelServer.start({ turns });
  servers.push(server);
  const cwd = writeTree(files, 'lathe-acp-');
  const home = tempDir('lathe-home-');
  const lines: string[] = [];
  const options: AcpOptions = {
    documentsRoot: home,
    model: 'anthropic/claude-sonnet-4-5',
    baseUrl: server.baseUrl('anthropic'),
    apiKey: 'test-key',
    env: { ...process.env, LATHE_RETRY_BASE_MS: '10' },
    settings: { lsp: { diagnosticsAfterEdit: false } },
    stderr: (line) => lines.push(line),
  };
  return { server, cwd, home, options, lines };
}

/** The agent in this process, and the fake editor connected to it. */
export function connectInProcess(options: AcpOptions) {
  const editor = new FakeEditor();
  const sessions = new Map<string, AcpSession>();
  const connection = editor.app.connect(latheAgent(options, sessions));
  closers.push(async () => {
    connection.close();
    await Promise.all([...sessions.values()].map((session) => session.close()));
  });
  return { editor, agent: connection.agent as ClientContext, sessions };
}

export async function initialized(agent: ClientContext) {
  return agent.request('initialize', {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
  });
}
