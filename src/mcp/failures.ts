/** JSON-RPC codes the SDK uses for its own failures (ErrorCode in the SDK's types). */
const CONNECTION_CLOSED = -32000;
const REQUEST_TIMEOUT = -32001;

export type FailureKind = 'cancelled' | 'timeout' | 'closed' | 'protocol' | 'transport';

interface CodedError {
  name?: string;
  code?: unknown;
  message?: string;
  cause?: unknown;
}

const isMcpError = (e: CodedError) => e?.name === 'McpError' && typeof e.code === 'number';

/** What went wrong with a request: the caller's cancel, a timeout, a crash, the server's answer, or the line. */
export function classifyFailure(error: unknown, signal?: AbortSignal): FailureKind {
  if (signal?.aborted) return 'cancelled';
  const e = error as CodedError;
  if (isMcpError(e)) {
    if (e.code === REQUEST_TIMEOUT) return 'timeout';
    if (e.code === CONNECTION_CLOSED) return 'closed';
    return 'protocol';
  }
  // A result that fails the SDK's schema checks came from a live server.
  if (e?.name === 'ZodError') return 'protocol';
  return 'transport';
}

/** A failure in one line, with what a stdio server last said on stderr. */
export function describeFailure(error: unknown, stderrTail: string): string {
  const e = error as CodedError & { syscall?: string; path?: string };
  let text: string;
  if (e?.code === 'ENOENT' && e.path) text = `command not found: ${e.path}`;
  else if (e?.code === 'EACCES' && e.path) text = `command not executable: ${e.path}`;
  else if (isMcpError(e) && e.code === CONNECTION_CLOSED) text = 'the server closed the connection';
  else if (isMcpError(e) && e.code === REQUEST_TIMEOUT) text = 'the server did not answer in time';
  else {
    text = e?.message ?? String(error);
    const cause = (e?.cause as CodedError | undefined)?.message ?? (e?.cause as CodedError | undefined)?.code;
    if (cause && !text.includes(String(cause))) text += ` (${cause})`;
  }
  text = text.replace(/\s+/g, ' ').trim().slice(0, 500);
  const said = stderrTail
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(-3)
    .join(' | ')
    .slice(0, 400);
  return said ? `${text}; it said: ${said}` : text;
}
