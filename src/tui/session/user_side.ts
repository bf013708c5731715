import type { UserSide } from '../../agent/agent.js';
import type { ConfirmAnswer } from '../state/prompts.js';
import type { UiStore } from '../state/store.js';
import { todoProposalLines } from './todo_view.js';

const INTERRUPTED = 'The user interrupted the run.';

/** Questions, plans, phases and todo lists, put to the person at the terminal. */
export function terminalUserSide(store: UiStore): UserSide {
  return {
    ask: async (question, options) => {
      store.settleText();
      const answer = await store.ask<string | undefined>({
        kind: 'question',
        question,
        options,
        cancelValue: undefined,
      });
      return answer === undefined
        ? { answer: 'The user did not answer: the run was interrupted.', present: false }
        : { answer, present: true };
    },
    confirm: async (request) => {
      store.settleText();
      // The plan and the phase were printed by their own events; a todo list shows as its diff.
      if (request.kind === 'todo')
        store.add({ kind: 'proposal', title: request.title, lines: todoProposalLines(request.body) });
      return store.ask<ConfirmAnswer>({
        kind: 'confirm',
        confirm: request.kind,
        title: request.title,
        cancelValue: { approved: false, feedback: INTERRUPTED },
      });
    },
  };
}
