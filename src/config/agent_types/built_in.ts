import { SMALL_MODEL } from './model_names.js';
import type { AgentType } from './types.js';

const EXPLORE_PROMPT = `You are exploring a codebase for another agent, which will act on what you find.
Search broadly, then read what matters. You can only read: do not try to change anything.
End with a short, dense answer: the files and line numbers that matter, what each does, and what
you could not find. Quote only the lines that prove a point.`;

const PLAN_PROMPT = `You are planning a change for another agent, which will carry it out.
Read the code the change touches and what depends on it. You can only read: do not try to change
anything. End with the plan in Markdown: the goal in a sentence, numbered steps each naming the
files and functions to change and how, the tests that prove it works, and the risks or open
questions.`;

/**
 * The types every lathe has. `general` gets the parent's tools, less those no child is offered
 * (the tools declare that themselves); `explore` and `plan` get only tools that change nothing,
 * and `explore` the provider's small fast model.
 */
export const BUILT_IN_TYPES: readonly AgentType[] = [
  {
    name: 'general',
    description:
      'A general-purpose agent with the same tools as you: for multi-step tasks, research and changes you can hand off whole.',
    source: 'built-in',
    origin: 'built-in',
  },
  {
    name: 'explore',
    description:
      'A fast read-only agent for finding things: files, definitions, usages, how something works. Say how thorough to be.',
    prompt: EXPLORE_PROMPT,
    readOnly: true,
    model: SMALL_MODEL,
    source: 'built-in',
    origin: 'built-in',
  },
  {
    name: 'plan',
    description:
      'A read-only agent that studies the code and returns a step-by-step implementation plan, with files, tests and risks.',
    prompt: PLAN_PROMPT,
    readOnly: true,
    source: 'built-in',
    origin: 'built-in',
  },
];
