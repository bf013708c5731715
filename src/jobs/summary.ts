import type { JobOutput, JobView } from './types.js';

/** One job's line of a batch's results (`lathe jobs results`): status, spend and where its output is. */
export interface JobSummary {
  id: string;
  batch: string | null;
  repo: string;
  status: string;
  attempts: number;
  turns: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
  output: string | null;
  worker: string | null;
  started_at: string | null;
  finished_at: string | null;
  result: string | null;
}

/** `failed(setup)`, `budget_exhausted(turns (3))`, `running(setup)`, or the plain status. */
export function statusText(view: JobView): string {
  if (view.status === 'failed' && view.outcome?.failure) return `failed(${view.outcome.failure.stage})`;
  if (view.status === 'budget_exhausted' && view.outcome?.budgetExhausted)
    return `budget_exhausted(${view.outcome.budgetExhausted})`;
  if (view.status === 'running')
    return `running(${view.cancelRequested ? 'cancelling' : (view.stage ?? 'start')})`;
  return view.status;
}

/** Where a job's output is: `branch lathe/job-x in <mirror>`, a patch file, or why there is none. */
export function outputText(output: JobOutput | undefined): string | null {
  if (!output) return null;
  if (output.kind === 'branch')
    return `branch ${output.branch} in ${output.pushedTo ?? output.repository}${output.pushedTo ? ' (pushed)' : ''}`;
  if (output.kind === 'patch') return `patch ${output.path}`;
  return `none: ${output.reason}`;
}

export function summarize(view: JobView): JobSummary {
  const outcome = view.outcome;
  const text = outcome?.failure?.message ?? outcome?.text ?? null;
  return {
    id: view.id,
    batch: view.batch ?? null,
    repo: view.spec.repo,
    status: statusText(view),
    attempts: view.attempts,
    turns: outcome?.turns ?? null,
    input_tokens: outcome?.usage?.inputTokens ?? null,
    output_tokens: outcome?.usage?.outputTokens ?? null,
    cost_usd: outcome?.costUsd ?? null,
    output: outputText(outcome?.output),
    worker: outcome?.worker ?? view.worker ?? null,
    started_at: outcome?.startedAt ?? view.startedAt ?? null,
    finished_at: outcome?.finishedAt ?? view.finishedAt ?? null,
    result: text === null ? null : text.split('\n')[0].slice(0, 200),
  };
}

const cell = (value: unknown) =>
  value === null || value === undefined ? '' : String(value).replace(/\|/g, '\\|');

/** The Markdown table of a batch: one row a job, and a line of totals. */
export function summaryMarkdown(rows: readonly JobSummary[]): string {
  const columns: Array<keyof JobSummary> = [
    'id',
    'status',
    'turns',
    'input_tokens',
    'output_tokens',
    'cost_usd',
    'output',
    'result',
  ];
  const lines = [`| ${columns.join(' | ')} |`, `|${columns.map(() => '---').join('|')}|`];
  for (const row of rows) lines.push(`| ${columns.map((c) => cell(row[c])).join(' | ')} |`);
  const counts = new Map<string, number>();
  for (const row of rows) {
    const status = row.status.replace(/\(.*$/, '');
    counts.set(status, (counts.get(status) ?? 0) + 1);
  }
  const cost = rows.reduce((sum, row) => sum + (row.cost_usd ?? 0), 0);
  const tally = [...counts].map(([status, n]) => `${n} ${status}`).join(', ');
  lines.push('', `${rows.length} jobs: ${tally}; cost $${cost.toFixed(4)} (where prices are known)`);
  return `${lines.join('\n')}\n`;
}
