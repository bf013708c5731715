import type { SettingsLayer } from './types.js';

/** subscribe_pr's webhook receiver (settings `github`). */
export interface GithubSettings {
  /** The port of the receiver on 127.0.0.1; 0 takes any free port. */
  webhookPort: number;
  /** The secret GitHub signs deliveries with; else the environment's LATHE_GITHUB_WEBHOOK_SECRET. */
  webhookSecret?: string;
}

/** The receiver's port when settings name none. */
export const DEFAULT_WEBHOOK_PORT = 7392;

export const DEFAULT_GITHUB_SETTINGS: GithubSettings = { webhookPort: DEFAULT_WEBHOOK_PORT };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The problems of a `github` section as written (validate.ts reports them naming the file). */
export function githubSettingsProblems(value: unknown): string[] {
  if (!isObject(value)) return ['"github" must be an object'];
  const problems: string[] = [];
  const { webhookPort, webhookSecret } = value;
  if (
    webhookPort !== undefined &&
    !(
      typeof webhookPort === 'number' &&
      Number.isInteger(webhookPort) &&
      webhookPort >= 0 &&
      webhookPort <= 65535
    )
  )
    problems.push('"github.webhookPort" must be a port number from 0 (any free port) to 65535');
  if (webhookSecret !== undefined && !(typeof webhookSecret === 'string' && webhookSecret.length >= 8))
    problems.push('"github.webhookSecret" must be a string of at least 8 characters');
  return problems;
}

/** Merges one layer's `github` into the resolved settings (later wins). */
export function mergeGithubSettings(resolved: GithubSettings, settings: SettingsLayer): void {
  const github = settings.github as Partial<GithubSettings> | undefined;
  if (!isObject(github) || githubSettingsProblems(github).length > 0) return;
  if (github.webhookPort !== undefined) resolved.webhookPort = github.webhookPort;
  if (github.webhookSecret !== undefined) resolved.webhookSecret = github.webhookSecret;
}
