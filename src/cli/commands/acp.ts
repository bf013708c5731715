import type { Profile } from '../../config/types.js';
import { exitWhenFlushed } from '../exit_when_flushed.js';

export interface AcpCommandOptions {
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  profile?: Profile;
  feature?: string[];
  noFeature?: string[];
  trust?: boolean;
  latheBin?: string;
}

/**
 * `lathe acp`: serves the editor on standard input and output until it goes, then exits at once
 * (every session ended, its log saved: nothing left to wait for).
 */
export async function acpCommand(opts: AcpCommandOptions): Promise<number> {
  const { serveAcp } = await import('../../acp/server.js');
  await serveAcp({
    model: opts.model,
    baseUrl: opts.baseUrl,
    apiKey: opts.apiKey,
    profile: opts.profile,
    features: [...(opts.feature ?? []), ...(opts.noFeature ?? []).map((name) => `-${name}`)],
    trust: opts.trust,
    ...(opts.latheBin ? { latheBin: opts.latheBin } : {}),
  });
  return exitWhenFlushed(0);
}
