import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';

const MAX_SECONDS = 3_600;

/** Resolves after `ms`, or early when `signal` aborts; says which. */
export function interruptibleDelay(ms: number, signal: AbortSignal): Promise<'elapsed' | 'interrupted'> {
  if (signal.aborted) return Promise.resolve('interrupted');
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve('interrupted');
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve('elapsed');
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export const sleep = buildTool({
  name: 'sleep',
  inputSchema: lazySchema(() =>
    z.strictObject({
      seconds: z.number().min(0).max(MAX_SECONDS).describe(`How long to wait (at most ${MAX_SECONDS} s)`),
      reason: z.string().optional().describe('What you are waiting for (shown to the user)'),
    }),
  ),
  description:
    'Wait without doing anything: for a deploy to roll out, a build elsewhere, a time of day. The user can ' +
    'interrupt the wait. Prefer it to a shell sleep, which holds a process and cannot be interrupted cleanly.',
  availability: { profiles: ['standard'], feature: 'proactive' },
  kind: 'other',
  userFacingName: () => 'Sleep',
  // lathe's own fact: it only waits, so Plan mode lets it run.
  planModeAllowed: true,
  async call(input, ctx) {
    const started = performance.now();
    ctx.progress?.(`waiting ${input.seconds} s${input.reason ? `: ${input.reason}` : ''}`);
    const how = await interruptibleDelay(input.seconds * 1000, ctx.signal);
    const waited = ((performance.now() - started) / 1000).toFixed(1);
    if (how === 'interrupted') return { text: `Interrupted after ${waited} s.`, data: { interrupted: true } };
    return { text: `Waited ${input.seconds} s.`, data: { interrupted: false } };
  },
});
