import type { HookFunction } from '../config/hooks/types.js';
import type { HookExit } from './run_hook.js';

/**
 * Runs a program's hook function as a hook command would run: what it returns is read as the
 * command's printed answer (an object as its JSON, text as its text), a throw as a failing exit
 * with the message on stderr. Past its timeout or on abort it is left behind (its signal aborts).
 */
export async function runHookFunction(
  fn: HookFunction,
  input: Record<string, unknown>,
  timeoutSeconds: number,
  signal?: AbortSignal,
): Promise<HookExit> {
  if (signal?.aborted) return { kind: 'aborted' };
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const ended = new Promise<HookExit>((resolve) => {
    timer = setTimeout(
      () => resolve({ kind: 'timed_out', seconds: timeoutSeconds, stdout: '', stderr: '' }),
      timeoutSeconds * 1000,
    );
    onAbort = () => resolve({ kind: 'aborted' });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  const ran = (async (): Promise<HookExit> => {
    try {
      const value = await fn(input, { signal: controller.signal });
      const stdout =
        value === undefined || value === null
          ? ''
          : typeof value === 'string'
            ? value
            : JSON.stringify(value);
      return { kind: 'exited', code: 0, stdout, stderr: '' };
    } catch (error) {
      return {
        kind: 'exited',
        code: 1,
        stdout: '',
        stderr: error instanceof Error ? error.message : String(error),
      };
    }
  })();
  try {
    return await Promise.race([ran, ended]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    controller.abort();
  }
}
