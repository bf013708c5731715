import { globalMcpSettingsPath } from '../../config/paths.js';
import type { ResolvedSettings } from '../../config/settings.js';
import type { McpServerConfig } from '../../mcp/config.js';
import { API_KEY_VARIABLES, apiKeyVariable, BASE_URL_VARIABLES } from '../../provider/create_model.js';
import { type ModelSpec, PROVIDERS, parseModelSpec } from '../../provider/model_spec.js';
import type { Runtime } from '../../runtime/create_runtime.js';
import { type CheckResult, failed, passed, withinTime } from './check.js';

/** What lathe is set up with here: settings, the model and its key, endpoints, MCP servers, the sandbox. */

/** How long an endpoint or a server gets to answer. */
const ENDPOINT_TIMEOUT_MS = 5_000;
const MCP_TIMEOUT_MS = 15_000;

/** Settings and MCP files: every problem lathe would warn about at start is a ✗ here. */
export function checkSettings(load: () => string[]): CheckResult {
  try {
    const problems = [...new Set(load())];
    if (problems.length === 0) return passed('settings', 'settings and MCP files are valid', true);
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    return failed('settings', `${problems[0]}${more}`, 'correct it in the settings file', true);
  } catch (error) {
    return failed('settings', (error as Error).message, 'correct it in the settings file', true);
  }
}

/** The model doctor checks: `--model`, else the settings' or LATHE_MODEL's. */
function modelOf(
  settings: ResolvedSettings | undefined,
  env: NodeJS.ProcessEnv,
  given?: string,
): string | undefined {
  return given ?? settings?.model ?? env.LATHE_MODEL;
}

/** Which providers have a key in the environment. */
export function checkKeys(env: NodeJS.ProcessEnv): CheckResult {
  const found = PROVIDERS.filter((p) => p !== 'openai-chat' && API_KEY_VARIABLES[p].length > 0).flatMap(
    (provider) => {
      const variable = apiKeyVariable(provider, env);
      return variable ? [`${provider} (${variable})`] : [];
    },
  );
  if (found.length > 0) return passed('api keys', found.join(', '));
  return failed(
    'api keys',
    'no provider key is set',
    'export ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY (or GOOGLE_API_KEY), or use a local model (--model ollama/…)',
  );
}

/** The model `--model`, the settings or LATHE_MODEL name, and whether its key is there. */
export function checkModel(
  settings: ResolvedSettings | undefined,
  env: NodeJS.ProcessEnv,
  given?: string,
): CheckResult {
  const name = modelOf(settings, env, given);
  if (!name)
    return failed(
      'model',
      'none set',
      'pass --model provider/model (lathe doctor --model … checks it), or set "model" in settings',
    );
  let spec: ModelSpec;
  try {
    spec = parseModelSpec(name);
  } catch (error) {
    return failed('model', (error as Error).message, 'set "model" to provider/model', true);
  }
  const needs = API_KEY_VARIABLES[spec.provider];
  if (needs.length === 0 || spec.provider === 'openai-compatible' || apiKeyVariable(spec.provider, env))
    return passed('model', name, true);
  return failed('model', `${name}: ${needs[0]} is not set`, `export ${needs.join(' or ')}`, true);
}

/** The endpoints set in the environment (and Ollama's, when the model is local), each asked once. */
export async function checkEndpoints(
  settings: ResolvedSettings | undefined,
  env: NodeJS.ProcessEnv,
  given?: string,
): Promise<CheckResult[]> {
  const urls = new Map<string, string>();
  for (const variable of new Set(Object.values(BASE_URL_VARIABLES))) {
    const url = env[variable];
    if (url) urls.set(variable, url);
  }
  const model = modelOf(settings, env, given);
  if (model?.startsWith('ollama/') && !urls.has('OPENAI_COMPATIBLE_BASE_URL'))
    urls.set('ollama', 'http://localhost:11434/v1');
  return Promise.all([...urls].map(([variable, url]) => checkEndpoint(variable, url)));
}

async function checkEndpoint(variable: string, url: string): Promise<CheckResult> {
  const name = `endpoint ${variable}`;
  try {
    const answer = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(ENDPOINT_TIMEOUT_MS) });
    await answer.body?.cancel();
    return passed(name, `${url} answers (HTTP ${answer.status})`);
  } catch (error) {
    const why =
      (error as Error).name === 'TimeoutError'
        ? `no answer in ${ENDPOINT_TIMEOUT_MS / 1000} s`
        : ((error as { cause?: Error }).cause?.message ?? (error as Error).message);
    return failed(
      name,
      `${url}: ${why}`,
      `check the URL and that the server runs (and HTTPS_PROXY / NO_PROXY)`,
    );
  }
}

/**
 * The MCP servers of the user's own settings, connected in parallel, each for a bounded time.
 * A workspace's servers are not started here: their commands come with the folder.
 */
export async function checkMcpServers(
  servers: readonly McpServerConfig[],
  places: { documentsRoot: string; workspace: string },
): Promise<CheckResult[]> {
  const globalFile = globalMcpSettingsPath(places.documentsRoot);
  return Promise.all(
    servers.map(async (server): Promise<CheckResult> => {
      const name = `mcp ${server.name}`;
      if (server.disabled) return passed(name, 'disabled');
      if (server.source !== globalFile)
        return passed(
          name,
          `from ${server.source}: not started by doctor (try it: lathe mcp test ${server.name})`,
        );
      const { McpConnection } = await import('../../mcp/connection.js');
      const connection = new McpConnection(server, { onChange: () => {} }, { workspace: places.workspace });
      const late = () => 'late' as const;
      const outcome = await withinTime(
        connection.connect().then(() => 'settled' as const),
        MCP_TIMEOUT_MS,
        late,
      );
      const tools = connection.tools.length;
      const state = connection.state;
      const error = connection.error;
      await connection.close();
      if (outcome === 'late')
        return failed(
          name,
          `no answer in ${MCP_TIMEOUT_MS / 1000} s`,
          `check the server (lathe mcp test ${server.name})`,
        );
      if (state === 'connected') return passed(name, `${server.transport}, ${tools} tools`);
      return failed(name, error ?? 'could not connect', `check its entry in ${server.source}`);
    }),
  );
}

/** Whether commands really run in the sandbox here (the runtime's own probe). */
export async function checkSandbox(runtime: Runtime | undefined, why?: string): Promise<CheckResult> {
  if (!runtime) return failed('sandbox', `not checked: ${why}`, 'fix the settings first', true);
  if (runtime.settings.sandbox.mode === 'off')
    return passed('sandbox', 'off (settings or --sandbox off)', true);
  const status = await runtime.checkSandbox();
  if (status.active)
    return passed('sandbox', `${runtime.settings.sandbox.mode}: commands run in bubblewrap`, true);
  return failed(
    'sandbox',
    status.reason,
    'install bubblewrap (apt install bubblewrap) and allow user namespaces, or run with --sandbox off',
    true,
  );
}
