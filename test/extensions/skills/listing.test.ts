import { describe, expect, it } from 'vitest';
import { systemPrompt } from '../../../src/agent/system_prompt.js';
import { skillLine, skillListing } from '../../../src/config/skills/index.js';
import { countTokens } from '../../../src/tool/token_count.js';

const name = 'a'.repeat(64);
/** Descriptions of 1,024 characters that tokenize badly in different ways. */
const HARD: Record<string, string> = {
  english: 'Extracts text, tables and forms from PDF files, fills them in and merges them. '
    .repeat(14)
    .slice(0, 1024),
  cjk: '从PDF文件中提取文本和表格，并填写表单。'.repeat(60).slice(0, 1024),
  base64: 'aGVsbG8gd29ybGQhIFRoaXMgaXMgYSB0ZXN0IG9mIGJhc2U2NCB0ZXh0Lg=='.repeat(20).slice(0, 1024),
  punctuation: '!?;:(){}[]<>/\\|@#$%^&*~`'.repeat(50).slice(0, 1024),
  oneLongWord: 'x'.repeat(1024),
  digits: '3141592653589793238462643383279502884197169399375105820974944592'.repeat(16),
  emoji: '📄🔍✂️📊'.repeat(100).slice(0, 1024),
  gibberish: 'qzx vbnkj wqrtp zxcvq jkwq plmq xkcd vvwx '.repeat(30).slice(0, 1024),
  identifiers: 'useSkillLoader getHTTPResponse2 parse_json_v3 XMLHttpRequest '.repeat(20).slice(0, 1024),
};

describe('the skill listing in the system prompt', () => {
  it.each(Object.entries(HARD))(
    'costs at most 100 tokens a skill (%s description)',
    async (_, description) => {
      const line = skillLine({ name, description });
      expect(await countTokens(line)).toBeLessThanOrEqual(100);
      expect(line.startsWith(`- ${name}: `)).toBe(true);
    },
  );

  it('keeps a short description whole and cuts a long one at a word, marked with …', () => {
    expect(skillLine({ name: 'pdf', description: 'Works with PDFs.' })).toBe('- pdf: Works with PDFs.');
    const cut = skillLine({ name: 'pdf', description: HARD.english });
    expect(cut.endsWith('…')).toBe(true);
    const kept = cut.slice('- pdf: '.length, -1);
    expect(HARD.english.startsWith(kept)).toBe(true);
    // Cut where a word ends.
    expect(HARD.english[kept.length]).toBe(' ');
  });

  it('joins the system prompt after the project instructions, and not at all without skills', () => {
    const base = { profile: 'standard' as const, mode: 'act' as const, environment: 'env', agentsFiles: [] };
    const withSkills = systemPrompt({ ...base, skills: [{ name: 'pdf', description: 'Works with PDFs.' }] });
    expect(withSkills).toContain('call load_skill with its name');
    expect(withSkills).toContain('\n- pdf: Works with PDFs.');
    expect(systemPrompt({ ...base, skills: [] })).not.toContain('load_skill');
    expect(skillListing([])).toBeUndefined();
  });
});
