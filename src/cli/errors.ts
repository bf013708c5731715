export { UsageError } from '../sdk/errors.js';

/**
 * What the user sees of an error: its message's first line, never a stack trace. With
 * LATHE_DEBUG=1 the stack follows, for reports.
 */
export function errorLine(error: unknown, env: NodeJS.ProcessEnv = process.env): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split('\n').find((l) => l.trim() !== '') ?? 'unknown error';
  if (env.LATHE_DEBUG && env.LATHE_DEBUG !== '0' && error instanceof Error && error.stack) {
    return `${line}\n${error.stack}`;
  }
  return line;
}
