import { readFileSync } from 'node:fs';
import type { UserSide } from '../agent/agent.js';
import type { Elicit, ElicitationAnswer, ElicitedValue } from '../mcp/elicitation.js';
import { UsageError } from './errors.js';

const NO_USER =
  'No user is present to answer (headless run). Decide using the most reasonable assumption, say which you chose, and go on.';

/** The answers of an `--answers` file: a JSON array of strings (or `{ "answers": [...] }`). */
export function readAnswers(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`--answers ${file}: ${code === 'ENOENT' ? 'no such file' : 'cannot be read'}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--answers ${file}: not valid JSON (${(error as Error).message})`);
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { answers?: unknown } | null)?.answers;
  if (!Array.isArray(list) || !list.every((a) => typeof a === 'string'))
    throw new UsageError(`--answers ${file}: wants a JSON array of strings, e.g. ["yes", "no: use npm"]`);
  return list;
}

/**
 * The user side of a headless run. Answers come from `--answers FILE` or the `answers` option (strings,
 * used in order for questions, plan approvals and phase acknowledgments: "yes", "no", or
 * "no: reason"); without one, questions are answered that no user is present, plans are not
 * approved (unless --yolo) and phases are acknowledged.
 */
export function headlessUserSide(options: {
  answers?: readonly string[];
  yolo?: boolean;
}): UserSide & { elicit: Elicit } {
  const answers = [...(options.answers ?? [])];
  return {
    // An MCP server's question takes the next answer too; with none left it is declined.
    async elicit() {
      return elicitationAnswer(answers.shift());
    },
    async ask() {
      const next = answers.shift();
      return next === undefined ? { answer: NO_USER, present: false } : { answer: next, present: true };
    },
    async confirm(request) {
      const next = answers.shift();
      if (next === undefined) {
        if (request.kind === 'phase') return { approved: true };
        return options.yolo
          ? { approved: true }
          : { approved: false, feedback: 'no user is present to approve it' };
      }
      const match = /^\s*(yes|y|approve|ok|no|n|reject)\b[:\s]*(.*)$/i.exec(next);
      const approved = match ? /^(yes|y|approve|ok)$/i.test(match[1]) : false;
      const feedback = (match ? match[2] : next).trim();
      return { approved, ...(feedback ? { feedback } : {}) };
    },
  };
}

/**
 * An `--answers` entry as the answer to an MCP server's question: a JSON object fills in a form,
 * "yes"/"accept" accepts (a form with its defaults, a link as opened), "cancel" cancels, and
 * anything else (or no answer left) declines.
 */
export function elicitationAnswer(answer: string | undefined): ElicitationAnswer {
  const text = answer?.trim() ?? '';
  if (text.startsWith('{')) {
    try {
      return { action: 'accept', content: JSON.parse(text) as Record<string, ElicitedValue> };
    } catch {
      return { action: 'decline' };
    }
  }
  if (/^(yes|y|accept|ok)$/i.test(text)) return { action: 'accept' };
  if (/^cancel$/i.test(text)) return { action: 'cancel' };
  return { action: 'decline' };
}
