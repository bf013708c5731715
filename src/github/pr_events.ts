/** The webhook events that concern a pull request, which subscribe_pr follows. */
export const PR_EVENTS = [
  'pull_request',
  'pull_request_review',
  'pull_request_review_comment',
  'pull_request_review_thread',
  'issue_comment',
  'check_run',
  'check_suite',
] as const;
export type PrEventName = (typeof PR_EVENTS)[number];

/** How much of a comment or review body a note quotes. */
const MAX_QUOTE_CHARS = 1_500;

type Json = Record<string, unknown>;
const obj = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

export function isPrEvent(name: string): name is PrEventName {
  return (PR_EVENTS as readonly string[]).includes(name);
}

/** The repository (`owner/name`, lower case) and the pull-request numbers a delivery is about. */
export function prTargets(event: string, payload: unknown): { repo?: string; numbers: number[] } {
  const body = obj(payload);
  const repo = str(obj(body.repository).full_name)?.toLowerCase();
  const numbers: number[] = [];
  const add = (value: unknown) => {
    const n = num(value);
    if (n !== undefined && !numbers.includes(n)) numbers.push(n);
  };
  if (event === 'issue_comment') {
    const issue = obj(body.issue);
    // A comment on a plain issue is not about a pull request.
    if (issue.pull_request !== undefined) add(issue.number);
  } else if (event === 'check_run' || event === 'check_suite') {
    const pulls = obj(body[event]).pull_requests;
    for (const pull of Array.isArray(pulls) ? pulls : []) add(obj(pull).number);
  } else if (isPrEvent(event)) {
    add(obj(body.pull_request).number ?? body.number);
  }
  return { repo, numbers };
}

function quote(text: string | undefined): string {
  const trimmed = text?.trim();
  if (!trimmed) return '';
  const cut = trimmed.length > MAX_QUOTE_CHARS ? `${trimmed.slice(0, MAX_QUOTE_CHARS)}…` : trimmed;
  return `\n${cut
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n')}`;
}

/** One line saying what happened, and the text a person wrote with it (quoted). */
export function describePrEvent(event: string, payload: unknown): { line: string; quoted: string } {
  const body = obj(payload);
  const action = str(body.action);
  const who = str(obj(body.sender).login);
  const by = who ? ` by ${who}` : '';
  const pr = obj(body.pull_request);
  if (event === 'pull_request') {
    const merged = action === 'closed' && pr.merged === true ? 'merged' : action;
    const head = action === 'synchronize' ? ` (head now ${str(obj(pr.head).sha)?.slice(0, 7) ?? '?'})` : '';
    return { line: `pull request ${merged ?? 'event'}${by}${head}: "${str(pr.title) ?? ''}"`, quoted: '' };
  }
  if (event === 'pull_request_review') {
    const review = obj(body.review);
    return {
      line: `review ${action ?? ''}${by}: ${str(review.state) ?? 'no state'}`,
      quoted: quote(str(review.body)),
    };
  }
  if (event === 'pull_request_review_comment' || event === 'issue_comment') {
    const comment = obj(body.comment);
    const place = str(comment.path)
      ? ` on ${comment.path}${num(comment.line) ? `:${comment.line}` : ''}`
      : '';
    const kind = event === 'issue_comment' ? 'comment' : 'review comment';
    return { line: `${kind} ${action ?? ''}${by}${place}`, quoted: quote(str(comment.body)) };
  }
  if (event === 'pull_request_review_thread')
    return { line: `review thread ${action ?? 'changed'}${by}`, quoted: '' };
  const check = obj(body[event]);
  const name = str(check.name) ?? str(obj(check.app).name) ?? 'checks';
  const state = [str(check.status), str(check.conclusion)].filter(Boolean).join(', ');
  return {
    line: `${event === 'check_run' ? 'check' : 'check suite'} "${name}" ${action ?? ''}: ${state}`,
    quoted: '',
  };
}
