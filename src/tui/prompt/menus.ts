import { fileChangingTools, runsCommands } from '../render/tool_facts.js';
import type { Prompt } from '../state/prompts.js';

/** One choice of a prompt. `text` choices ask for words next (a reason, an answer, a change). */
export interface MenuOption {
  label: string;
  value: string;
  hint?: string;
  text?: { label: string };
  /** A choice one key away (its letter), listed on a row of its own under the numbered ones. */
  key?: string;
}

/** The numbered choices: those the arrows and digits move over. */
export const primaryOptions = (options: MenuOption[]): MenuOption[] => options.filter((o) => !o.key);

/**
 * What "don't ask again" will allow, in words: `npm test` commands, edits in src/app/**, or the
 * rules themselves for other tools (the exact rules show under the choice when it is selected).
 */
export function summarizeRules(rules: string[]): string {
  const parsed = rules.map((rule) => /^(\w+)\((.*)\)$/.exec(rule));
  const of = (tools: (name: string) => boolean) =>
    parsed.every((m) => m && tools(m[1])) ? [...new Set(parsed.map((m) => m![2]))] : undefined;
  const commands = of(runsCommands);
  const listed = (items: string[]) =>
    items.length <= 2 ? items.join(', ') : `${items.slice(0, 2).join(', ')} +${items.length - 2} more`;
  if (commands) return `${listed(commands.map((c) => `\`${c}\``))} commands`;
  const folders = of((name) => fileChangingTools().includes(name));
  if (folders) return `edits in ${listed(folders)}`;
  return listed(rules);
}

/** The choices a prompt offers, in order (digits pick them directly). */
export function optionsFor(prompt: Prompt): MenuOption[] {
  switch (prompt.kind) {
    case 'approval': {
      // Three numbered choices; saving the rule and saying why are one letter away.
      const rules = prompt.rules.length > 0;
      return [
        { label: 'Yes', value: 'yes' },
        ...(rules
          ? [
              {
                label: `Yes, and don't ask again this session for ${summarizeRules(prompt.rules)}`,
                value: 'session',
              },
            ]
          : []),
        { label: 'No', value: 'no' },
        ...(rules
          ? [
              { label: 'save the rule to this project’s settings', value: 'project', key: 'p' },
              { label: 'to my user settings', value: 'user', key: 'u' },
            ]
          : []),
        {
          label: 'tell the model why…',
          value: 'no-why',
          key: 't',
          text: { label: 'Tell the model why, or what to do instead' },
        },
      ];
    }
    case 'question':
      return [
        ...(prompt.options ?? []).map((option) => ({ label: option, value: option })),
        { label: 'Type an answer…', value: '', text: { label: 'Your answer' } },
      ];
    case 'confirm':
      if (prompt.confirm === 'plan')
        return [
          { label: 'Approve the plan and carry it out', value: 'yes' },
          {
            label: 'Refine: tell the model what to change…',
            value: 'no-why',
            text: { label: 'What should change in the plan?' },
          },
        ];
      if (prompt.confirm === 'phase')
        return [
          { label: 'Continue', value: 'yes' },
          { label: 'Continue, with a note…', value: 'yes-why', text: { label: 'A note for the next phase' } },
          { label: 'Stop here', value: 'no' },
          { label: 'Stop, and say why…', value: 'no-why', text: { label: 'Why stop?' } },
        ];
      return [
        { label: 'Apply the new list', value: 'yes' },
        { label: 'Keep the current list', value: 'no' },
        {
          label: 'Keep it, and say what to change…',
          value: 'no-why',
          text: { label: 'What should change?' },
        },
      ];
    case 'pick':
      return prompt.choices.map((choice) => ({
        label: choice.label,
        value: choice.value,
        hint: choice.hint,
      }));
    case 'form':
      // A form has fields, not choices (form_state.ts).
      return [];
  }
}

/** A question without choices goes straight to typing. */
export function startsWithText(prompt: Prompt): boolean {
  return prompt.kind === 'question' && (prompt.options ?? []).length === 0;
}

export function promptTitle(prompt: Prompt): string {
  switch (prompt.kind) {
    case 'approval':
      return prompt.title;
    case 'question':
      return prompt.question;
    case 'confirm':
      return prompt.confirm === 'plan'
        ? 'Approve this plan?'
        : prompt.confirm === 'phase'
          ? `Go on after “${prompt.title}”?`
          : 'Apply this todo list?';
    case 'pick':
      return prompt.title;
    case 'form':
      return `MCP server "${prompt.server}" asks`;
  }
}

/** Answers a prompt with a chosen option (and the words typed for a `text` option). */
export function answer(prompt: Prompt, option: MenuOption, typed?: string): void {
  const words = typed?.trim() || undefined;
  switch (prompt.kind) {
    case 'approval':
      if (option.value === 'yes') prompt.resolve({ kind: 'yes' });
      else if (option.value === 'session' || option.value === 'project' || option.value === 'user')
        prompt.resolve({ kind: 'always', scope: option.value });
      else prompt.resolve({ kind: 'no', ...(words ? { feedback: words } : {}) });
      return;
    case 'question':
      prompt.resolve(option.text ? (words ?? '') : option.value);
      return;
    case 'confirm':
      prompt.resolve({ approved: option.value.startsWith('yes'), ...(words ? { feedback: words } : {}) });
      return;
    case 'pick':
      prompt.resolve(option.value);
      return;
  }
}
