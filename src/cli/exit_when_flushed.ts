/** Resolves once a stream has handed over what it holds (or cannot: a closed pipe). */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || stream.writableLength === 0) resolve();
    else stream.write('', () => resolve());
  });
}

/**
 * Ends the process as soon as standard output and error are flushed. For a one-shot command
 * whose work is done — what it started ended, its session log synced: what may be left (an idle
 * keep-alive connection, the engine's heap teardown) would only delay the exit a script waits for.
 */
export async function exitWhenFlushed(code: number): Promise<never> {
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}
