import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import {
  type AgentApp,
  type AgentContext,
  agent,
  type ClientCapabilities,
  type InitializeResponse,
  PROTOCOL_VERSION,
  RequestError,
} from '@agentclientprotocol/sdk';
import { PROFILES, type Profile } from '../config/types.js';
import { resolveConfiguration } from '../runtime/configuration.js';
import type { QueryOptions } from '../sdk/options.js';
import { newSessionId } from '../session/ids.js';
import { AUTH_METHODS, missingKey } from './auth.js';
import { findLoggedSession, replayUpdates, sessionInfos } from './history.js';
import { mcpEntries } from './mcp_servers.js';
import { configOptions, isModeId, modeState } from './modes.js';
import { AcpSession } from './session.js';

/** What every session of the connection starts from: the command line's model, endpoint, settings. */
export type AcpOptions = Omit<
  QueryOptions,
  'cwd' | 'canUseTool' | 'hooks' | 'resume' | 'continue' | 'sessionId'
>;

function version(): string {
  try {
    return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
  } catch {
    return '0.0.0';
  }
}

/** A failure to start a session as the error the editor shows: its message, one line. */
function failure(error: unknown): RequestError {
  if (error instanceof RequestError) return error;
  return RequestError.internalError(undefined, (error as Error)?.message ?? String(error));
}

/**
 * lathe as an Agent Client Protocol agent: the editor's sessions, each a `query()` of its own.
 * `sessions` lets the caller end them all when the connection goes.
 */
export function latheAgent(options: AcpOptions, sessions = new Map<string, AcpSession>()): AgentApp {
  let clientCapabilities: ClientCapabilities | undefined;
  const env = options.env ?? process.env;
  const places = (cwd: string) => ({ cwd, documentsRoot: options.documentsRoot, env });

  const sessionOf = (id: string): AcpSession => {
    const session = sessions.get(id);
    if (!session)
      throw RequestError.invalidParams(
        { sessionId: id },
        `no session ${id}: start one with session/new or session/load`,
      );
    return session;
  };

  const checkCwd = (cwd: string) => {
    if (!isAbsolute(cwd))
      throw RequestError.invalidParams({ cwd }, `cwd must be an absolute path, not "${cwd}"`);
  };

  /** A session started (new, loaded or resumed), its query ready; its commands announced after the answer. */
  const open = async (
    client: AgentContext,
    request: { cwd: string; mcpServers?: Parameters<typeof mcpEntries>[0] },
    id: string,
    logged: boolean,
  ) => {
    checkCwd(request.cwd);
    await sessions.get(id)?.close();
    const session = new AcpSession({
      id,
      cwd: request.cwd,
      client,
      logged,
      // A loaded session goes on in the mode it was in.
      ...(logged ? {} : { mode: 'act' as const }),
      options: {
        ...options,
        mcpServers: { ...options.mcpServers, ...mcpEntries(request.mcpServers) },
      },
      clientCapabilities,
    });
    try {
      await session.start();
    } catch (error) {
      await session.close();
      throw failure(error);
    }
    sessions.set(id, session);
    return session;
  };

  const described = (session: AcpSession) => ({
    modes: modeState(session.mode),
    configOptions: configOptions(session),
  });

  /** After the answer: the commands a prompt can start with `/`. */
  const announceCommands = (session: AcpSession) =>
    setImmediate(() =>
      session.notify({ sessionUpdate: 'available_commands_update', availableCommands: session.commands }),
    );

  return agent({ name: 'lathe' })
    .onRequest('initialize', ({ params }): InitializeResponse => {
      clientCapabilities = params.clientCapabilities;
      return {
        // A client asking for a newer version gets the one lathe speaks.
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
          sessionCapabilities: { list: {}, resume: {}, close: {} },
        },
        authMethods: AUTH_METHODS,
        agentInfo: { name: 'lathe', title: 'lathe', version: version() },
      };
    })
    .onRequest('authenticate', ({ params }) => {
      if (params.methodId !== 'api-key')
        throw RequestError.invalidParams(
          { methodId: params.methodId },
          `no auth method "${params.methodId}"; lathe has "api-key"`,
        );
      const model =
        typeof options.model === 'string'
          ? options.model
          : options.model
            ? 'ready'
            : (resolveConfiguration(places(process.cwd())).settings.model ?? env.LATHE_MODEL);
      const missing = model === 'ready' ? undefined : missingKey(model, env, options.apiKey);
      if (missing) throw RequestError.authRequired(undefined, missing);
      return {};
    })
    .onRequest('session/new', async ({ params, client }) => {
      const session = await open(client, params, newSessionId(), false);
      announceCommands(session);
      return { sessionId: session.id, ...described(session) };
    })
    .onRequest('session/load', async ({ params, client }) => {
      checkCwd(params.cwd);
      const found = findLoggedSession(places(params.cwd), params.sessionId);
      if (!found) throw RequestError.resourceNotFound(params.sessionId);
      const session = await open(client, params, params.sessionId, true);
      // The conversation so far, shown again before the answer.
      for (const update of replayUpdates(found.path, session.mapper)) session.notify(update);
      announceCommands(session);
      return described(session);
    })
    .onRequest('session/resume', async ({ params, client }) => {
      checkCwd(params.cwd);
      if (!findLoggedSession(places(params.cwd), params.sessionId))
        throw RequestError.resourceNotFound(params.sessionId);
      const session = await open(client, params, params.sessionId, true);
      announceCommands(session);
      return described(session);
    })
    .onRequest('session/list', ({ params }) => {
      const cwd = params.cwd ?? process.cwd();
      checkCwd(cwd);
      return { sessions: sessionInfos(places(cwd)) };
    })
    .onRequest('session/close', async ({ params }) => {
      const session = sessionOf(params.sessionId);
      sessions.delete(params.sessionId);
      await session.close();
      return {};
    })
    .onRequest('session/prompt', async ({ params }) => {
      const session = sessionOf(params.sessionId);
      try {
        return { stopReason: await session.prompt(params.prompt) };
      } catch (error) {
        throw RequestError.invalidParams(undefined, (error as Error).message);
      }
    })
    .onNotification('session/cancel', ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    })
    .onRequest('session/set_mode', async ({ params }) => {
      const session = sessionOf(params.sessionId);
      if (!isModeId(params.modeId))
        throw RequestError.invalidParams(
          { modeId: params.modeId },
          `no mode "${params.modeId}"; use act, act-edits or plan`,
        );
      await session.setMode(params.modeId);
      session.notify({ sessionUpdate: 'current_mode_update', currentModeId: params.modeId });
      return {};
    })
    .onRequest('session/set_config_option', async ({ params }) => {
      const session = sessionOf(params.sessionId);
      const value = String(params.value);
      switch (params.configId) {
        case 'mode':
          if (!isModeId(value))
            throw RequestError.invalidParams({ value }, `no mode "${value}"; use act, act-edits or plan`);
          await session.setMode(value);
          session.notify({ sessionUpdate: 'current_mode_update', currentModeId: value });
          break;
        case 'model':
          if (!/^[\w.-]+\/\S+$/.test(value))
            throw RequestError.invalidParams({ value }, `model: give provider/model, not "${value}"`);
          try {
            await session.setModel(value);
          } catch (error) {
            throw RequestError.invalidParams({ value }, (error as Error).message);
          }
          break;
        case 'profile':
          if (!(PROFILES as readonly string[]).includes(value))
            throw RequestError.invalidParams({ value }, `no profile "${value}"; use ${PROFILES.join(', ')}`);
          session.setProfile(value as Profile);
          break;
        default:
          throw RequestError.invalidParams(
            { configId: params.configId },
            `no option "${params.configId}"; use mode, model or profile`,
          );
      }
      return { configOptions: configOptions(session) };
    });
}
