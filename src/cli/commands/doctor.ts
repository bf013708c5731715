import { loadSettings } from '../../config/load.js';
import type { ResolvedSettings } from '../../config/settings.js';
import { isFolderTrusted } from '../../config/trust.js';
import { loadMcpConfig } from '../../mcp/config.js';
import { proxyConfigured } from '../../provider/proxy.js';
import { createRuntime, type Runtime, runtimePlaces } from '../../runtime/create_runtime.js';
import { type CheckResult, passed } from '../doctor/check.js';
import {
  checkBubblewrap,
  checkChromium,
  checkGit,
  checkLanguageServers,
  checkNode,
  checkRipgrep,
  checkTmux,
} from '../doctor/programs.js';
import {
  checkEndpoints,
  checkKeys,
  checkMcpServers,
  checkModel,
  checkSandbox,
  checkSettings,
} from '../doctor/setup.js';

function proxyLine(env: NodeJS.ProcessEnv): CheckResult[] {
  if (!proxyConfigured(env)) return [];
  const proxy = env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy;
  const bypass = env.NO_PROXY || env.no_proxy;
  return [passed('proxy', `${proxy}${bypass ? ` (not for ${bypass})` : ''}`)];
}

function format(results: CheckResult[]): string {
  const width = Math.max(...results.map((r) => r.name.length));
  const lines = results.map((r) => {
    const fix = r.ok || !r.fix ? '' : ` — ${r.fix}`;
    return `${r.ok ? '✓' : '✗'} ${r.name.padEnd(width)}  ${r.detail}${fix}`;
  });
  const essential = results.filter((r) => !r.ok && r.essential).length;
  const other = results.filter((r) => !r.ok && !r.essential).length;
  lines.push(
    '',
    essential > 0
      ? `${essential} essential check${essential > 1 ? 's' : ''} failed.`
      : `Everything essential works${other > 0 ? ` (${other} optional check${other > 1 ? 's' : ''} failed)` : ''}.`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * `lathe doctor`: what lathe needs here, one line each, every check at once. Exit code 1 when an
 * essential check fails (Node, ripgrep, the sandbox, settings, the model's key). `--model` names
 * the model to check instead of the configured one.
 */
export async function doctorCommand(opts: { cwd?: string; json?: boolean; model?: string }): Promise<number> {
  const env = process.env;
  const places = runtimePlaces({ cwd: opts.cwd });
  let settings: ResolvedSettings | undefined;
  let mcp: ReturnType<typeof loadMcpConfig> = { servers: [], warnings: [], untrusted: [] };
  let runtime: Runtime | undefined;
  let runtimeProblem: string | undefined;
  try {
    runtime = createRuntime({ cwd: opts.cwd });
  } catch (error) {
    runtimeProblem = (error as Error).message;
  }
  const settingsCheck = checkSettings(() => {
    const trusted = { ...places, workspaceTrusted: isFolderTrusted(places.documentsRoot, places.workspace) };
    settings = loadSettings(trusted);
    mcp = loadMcpConfig(trusted);
    return [...settings.warnings, ...mcp.warnings, ...(runtime?.warnings ?? [])];
  });
  try {
    const [programs, sandbox, endpoints, servers, languageServers] = await Promise.all([
      Promise.all([checkNode(), checkRipgrep(), checkGit(), checkBubblewrap(), checkTmux(), checkChromium()]),
      checkSandbox(runtime, runtimeProblem),
      checkEndpoints(settings, env, opts.model),
      checkMcpServers([...mcp.servers, ...mcp.untrusted], places),
      checkLanguageServers(settings?.lsp),
    ]);
    const results = [
      ...programs.slice(0, 4),
      sandbox,
      ...programs.slice(4),
      ...languageServers,
      settingsCheck,
      checkModel(settings, env, opts.model),
      checkKeys(env),
      ...proxyLine(env),
      ...endpoints,
      ...servers,
    ];
    process.stdout.write(opts.json ? `${JSON.stringify(results, null, 2)}\n` : format(results));
    return results.some((r) => !r.ok && r.essential) ? 1 : 0;
  } finally {
    await runtime?.dispose();
  }
}
