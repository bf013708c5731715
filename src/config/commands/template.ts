import { splitArguments } from './arguments.js';
import type { ExpandContext } from './prompt_command.js';

/**
 * Expands a Markdown command's body in one pass over the template: `$ARGUMENTS` is the whole
 * argument text, `$1`…`$9` its words, and `` !`command` `` the output of that command, run
 * through `runShell`. Arguments are substituted only outside the command parts and are never
 * scanned again, so nothing the user typed reaches a shell. `placeholders` tells whether the
 * template took arguments at all.
 */
export async function expandMarkdownTemplate(
  template: string,
  args: string,
  context: ExpandContext,
): Promise<{ text: string; placeholders: boolean }> {
  const words = splitArguments(args);
  let placeholders = false;
  const parts: Array<string | (() => Promise<string>)> = [];
  let last = 0;
  for (const match of template.matchAll(/!`([^`\n]+)`|\$ARGUMENTS|\$([1-9])/g)) {
    parts.push(template.slice(last, match.index));
    last = match.index + match[0].length;
    if (match[1] !== undefined) {
      const command = match[1];
      parts.push(() => context.runShell(command));
      continue;
    }
    placeholders = true;
    parts.push(match[2] === undefined ? args : (words[Number(match[2]) - 1] ?? ''));
  }
  parts.push(template.slice(last));
  // One command after the other, in the order they appear, as a reader of the file expects.
  let text = '';
  for (const part of parts) text += typeof part === 'string' ? part : await part();
  return { text, placeholders };
}
