/** One step of an approved plan, with what it names that the record can show: files, commands, tests. */
export interface PlanStep {
  n: number;
  /** The step's first line, as written. */
  title: string;
  paths: string[];
  commands: string[];
  /** It says to run or add tests. */
  wantsTests: boolean;
}

/** First words of command lines a plan names (in backticks or a code block). */
const COMMAND_WORDS = new Set([
  'npm',
  'npx',
  'pnpm',
  'yarn',
  'node',
  'deno',
  'bun',
  'git',
  'make',
  'cargo',
  'go',
  'python',
  'python3',
  'pytest',
  'pip',
  'uv',
  'tsc',
  'vitest',
  'jest',
  'mocha',
  'ruff',
  'eslint',
  'biome',
  'prettier',
  'bash',
  'sh',
  'docker',
  'gradle',
  'mvn',
  'dotnet',
  'rake',
  'bundle',
  'ctest',
  'cmake',
  'just',
  'cat',
  'ls',
  'echo',
]);
const EXTENSION = /\.[A-Za-z][A-Za-z0-9]{0,7}$/;
const BARE_PATH =
  /^(?:\.{0,2}\/)?[\w@.-]+(?:\/[\w@.-]+)+$|^[\w@-][\w@.-]*\.(?:[cm]?[jt]sx?|py|md|json|go|rs|java|kt|c|h|cc|cpp|hpp|rb|php|sh|ya?ml|toml|txt|css|scss|html|sql|swift|lock|cfg|ini|xml)$/;
const TEST_WORDS = /\btest(?:s|ing)?\b|\bspecs?\b/i;

const isCommand = (text: string) => {
  const first = text.trim().split(/\s+/)[0] ?? '';
  return COMMAND_WORDS.has(first) || (first.startsWith('./') && text.includes(' '));
};
const isPath = (text: string) =>
  !/\s/.test(text) && !/^[a-z]+:\/\//i.test(text) && (text.includes('/') || EXTENSION.test(text));
const cleanPath = (text: string) => text.replace(/^\.\//, '').replace(/[:,;)]+$/, '');

/** Prose that says to run what follows: "Run `x`", "execute the command `x`", "then `y`" after one. */
const RUN_BEFORE =
  /\b(?:run|runs|running|re-?run|execute|executes|invoke)\s+(?:the\s+)?(?:command\s+)?:?\s*$/i;
const JOINED = /^\s*(?:,|,?\s*(?:and|or)(?:\s+then)?|,?\s*then)\s*$/i;

/**
 * The backtick spans of a line, each a command when it starts with a known program (`npm test`)
 * or `$ `, or when the prose before it says to run it (`Run \`shellcheck x.sh\``, also a script
 * named by its path, and any span joined to such a one by "and", "or", "then" or a comma).
 */
function codeSpans(line: string): Array<{ text: string; command: boolean }> {
  const spans: Array<{ text: string; command: boolean }> = [];
  let previousEnd = 0;
  let previousCommand = false;
  for (const match of line.matchAll(/`([^`]+)`/g)) {
    const text = match[1].trim();
    const before = line.slice(previousEnd, match.index);
    const told: boolean = RUN_BEFORE.test(before) || (previousCommand && JOINED.test(before));
    const command: boolean = told || isCommand(text) || text.startsWith('$ ');
    spans.push({ text, command });
    previousEnd = match.index + match[0].length;
    previousCommand = command;
  }
  return spans;
}

/** Where steps start: numbered items, else top-level bullets, else headings. */
function stepPattern(lines: string[]): RegExp {
  if (lines.some((l) => /^ {0,3}\d+[.)]\s+\S/.test(l))) return /^ {0,3}\d+[.)]\s+(.*)$/;
  if (lines.some((l) => /^ ?[-*+]\s+\S/.test(l))) return /^ ?[-*+]\s+(?:\[[ xX]\]\s+)?(.*)$/;
  return /^#{1,4}\s+(.*)$/;
}

/** What one step's text names. */
function references(text: string[]): Pick<PlanStep, 'paths' | 'commands' | 'wantsTests'> {
  const paths = new Set<string>();
  const commands = new Set<string>();
  let fenced = false;
  for (const raw of text) {
    const line = raw.trim();
    if (line.startsWith('```')) {
      fenced = !fenced;
      continue;
    }
    if (fenced) {
      const command = line.replace(/^\$\s+/, '');
      if (command && isCommand(command)) commands.add(command);
      continue;
    }
    for (const span of codeSpans(line)) {
      if (span.command) commands.add(span.text.replace(/^\$\s+/, ''));
      else if (isPath(span.text)) paths.add(cleanPath(span.text));
    }
    const prose = line.replace(/`[^`]*`/g, ' ');
    for (const word of prose.split(/\s+/)) {
      const candidate = cleanPath(word.replace(/^[("']+|[."')]+$/g, ''));
      if (candidate && BARE_PATH.test(candidate) && isPath(candidate)) paths.add(candidate);
    }
  }
  return { paths: [...paths], commands: [...commands], wantsTests: TEST_WORDS.test(text.join('\n')) };
}

/** The steps of a plan written in Markdown. A plan with no list or heading is one step. */
export function planSteps(markdown: string): PlanStep[] {
  const lines = markdown.split('\n');
  const start = stepPattern(lines);
  const groups: Array<{ title: string; text: string[] }> = [];
  let fenced = false;
  for (const line of lines) {
    if (line.trim().startsWith('```')) fenced = !fenced;
    const match = fenced ? null : start.exec(line);
    if (match) groups.push({ title: match[1].trim(), text: [match[1]] });
    else if (groups.length > 0 && (fenced || !/^#{1,4}\s/.test(line))) groups.at(-1)!.text.push(line);
  }
  if (groups.length === 0)
    groups.push({ title: lines.find((l) => l.trim())?.trim() ?? 'the plan', text: lines });
  return groups.map((group, i) => ({ n: i + 1, title: group.title, ...references(group.text) }));
}
