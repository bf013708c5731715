import type { Skill } from './types.js';

/** What one skill may cost in the system prompt, estimated; the real count stays under 100 (a test checks it). */
const TOKENS_PER_SKILL = 80;

/**
 * A cautious token estimate without loading a tokenizer (which costs 150 ms): a plain word of up
 * to ten letters with a vowel costs a token per five letters, any other run of letters and digits
 * (identifiers, numbers, base64, consonant strings) a token per two characters, every other
 * character (punctuation, other scripts) one.
 */
function estimateTokens(text: string): number {
  let tokens = 0;
  for (const [word] of text.matchAll(/[A-Za-z0-9]+|\S/g)) {
    if (word.length === 1) tokens += 1;
    else if (word.length <= 10 && /^[A-Za-z][a-z]*$/.test(word) && /[aeiouy]/i.test(word))
      tokens += Math.ceil(word.length / 5);
    else tokens += Math.ceil(word.length / 2);
  }
  return tokens;
}

/** Text cut at a word boundary so its estimate fits `budget`, with "…" when cut. */
function fitTokens(text: string, budget: number): string {
  if (estimateTokens(text) <= budget) return text;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (estimateTokens(`${text.slice(0, middle)}…`) <= budget) low = middle;
    else high = middle - 1;
  }
  const cut = text.slice(0, low);
  const space = cut.lastIndexOf(' ');
  return `${(space > low / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** One skill's line in the listing: its name and description, at most about 100 tokens. */
export function skillLine(skill: Pick<Skill, 'name' | 'description'>): string {
  const head = `- ${skill.name}: `;
  return head + fitTokens(skill.description, TOKENS_PER_SKILL - estimateTokens(head));
}

/** The system prompt's section on skills: how to use them and one line each; none without skills. */
export function skillListing(skills: readonly Pick<Skill, 'name' | 'description'>[]): string | undefined {
  if (skills.length === 0) return undefined;
  return [
    'Skills: folders of instructions, scripts and references for particular tasks. When a task matches a ' +
      "skill's description, call load_skill with its name before you start, then follow its instructions " +
      '(read the files it names with read_file when they are needed).',
    ...skills.map(skillLine),
  ].join('\n');
}
