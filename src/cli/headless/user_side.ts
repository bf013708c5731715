import { readFileSync } from 'node:fs';
import type { UserSide } from '../../agent/agent.js';

const NO_USER =
  'No user is present to answer (headless run). Decide using the most reasonable assumption, say which you chose, and go on.';

/**
 * The user side of a headless run. Answers come from `--answers FILE` (a JSON array of strings,
 * used in order for questions, plan approvals and phase acknowledgments: "yes", "no", or
 * "no: reason"); without one, questions are answered that no user is present, plans are not
 * approved (unless --yolo) and phases are acknowledged.
 */
export function headlessUserSide(options: { answersFile?: string; yolo?: boolean }): UserSide {
  const answers: string[] = [];
  if (options.answersFile) {
    const parsed = JSON.parse(readFileSync(options.answersFile, 'utf8')) as unknown;
    const list = Array.isArray(parsed) ? parsed : (parsed as { answers?: unknown }).answers;
    if (!Array.isArray(list) || !list.every((a) => typeof a === 'string')) {
      throw new Error(`${options.answersFile}: --answers wants a JSON array of strings`);
    }
    answers.push(...list);
  }
  return {
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
