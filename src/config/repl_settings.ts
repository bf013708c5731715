import type { SettingsLayer } from './types.js';

/** Settings `repl`: how long one run of the JavaScript REPL may take, and its heap. */
export interface ReplSettings {
  timeoutMs: number;
  memoryMb: number;
}

export const DEFAULT_REPL_SETTINGS: ReplSettings = { timeoutMs: 30_000, memoryMb: 256 };

/** The smallest heap a REPL can start with and do anything in. */
export const MIN_REPL_MEMORY_MB = 16;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What is wrong with a layer's `repl` section, one line per key (empty: nothing). */
export function replSettingProblems(value: unknown): string[] {
  if (!isObject(value)) return ['"repl" must be an object'];
  const problems: string[] = [];
  for (const key of Object.keys(value))
    if (key !== 'timeout' && key !== 'memoryMb')
      problems.push(`"repl.${key}" is not known (use timeout, memoryMb)`);
  const { timeout, memoryMb } = value;
  if (timeout !== undefined && !(typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0))
    problems.push('"repl.timeout" must be a positive number of seconds');
  if (
    memoryMb !== undefined &&
    !(typeof memoryMb === 'number' && Number.isInteger(memoryMb) && memoryMb >= MIN_REPL_MEMORY_MB)
  )
    problems.push(`"repl.memoryMb" must be a whole number of megabytes, at least ${MIN_REPL_MEMORY_MB}`);
  return problems;
}

/** Applies one layer's `repl` section (checked by validate.ts): a later layer's values win. */
export function mergeReplSettings(resolved: ReplSettings, layer: SettingsLayer): void {
  const repl = layer.repl;
  if (!isObject(repl) || replSettingProblems(repl).length > 0) return;
  if (typeof repl.timeout === 'number') resolved.timeoutMs = Math.round(repl.timeout * 1000);
  if (typeof repl.memoryMb === 'number') resolved.memoryMb = repl.memoryMb;
}
