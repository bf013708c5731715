import type { AgentContext, ClientCapabilities } from '@agentclientprotocol/sdk';

/** The editor's own file access and terminal, when the client offers them (none yet: lathe's own are used). */
export function clientBackends(
  _connection: AgentContext,
  _sessionId: string,
  _caps: ClientCapabilities | undefined,
): undefined {
  return undefined;
}
