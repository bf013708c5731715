import { type CommandCheck, parseStrict } from '../options.js';

/** -i (in place) and -f (a script file we cannot read) are deliberately absent. */
const SED_OPTIONS = {
  flags: 'nErsuz',
  valued: 'el',
  longFlags: [
    '--quiet',
    '--silent',
    '--regexp-extended',
    '--separate',
    '--unbuffered',
    '--null-data',
    '--posix',
    '--debug',
    '--sandbox',
  ],
  longValued: ['--expression', '--line-length'],
};

export const checkSed: CommandCheck = (args) => {
  const parsed = parseStrict(args, SED_OPTIONS);
  if ('error' in parsed) return `sed: ${parsed.error}`;
  // GNU -l takes a line length; BSD -l takes nothing, so there the word after it is the script.
  const lineLength = parsed.options.find((o) => o.name === '-l' || o.name === '--line-length');
  if (lineLength && (lineLength.value!.dynamic || !/^\d+$/.test(lineLength.value!.value)))
    return 'sed: -l is followed by a script (BSD sed takes no line length)';
  const scripts = parsed.options.filter((option) => option.name === '-e' || option.name === '--expression');
  const script = scripts.length > 0 ? scripts.map((option) => option.value!) : parsed.operands.slice(0, 1);
  if (script.length === 0) return 'sed: no script';
  if (script.some((word) => word.dynamic)) return 'sed: the script is only known at run time';
  // sed joins -e fragments with newlines.
  const problem = sedScriptProblem(script.map((word) => word.value).join('\n'));
  return problem ? `sed: ${problem}` : undefined;
};

/** Commands that only print, move through the input or edit the pattern/hold spaces. */
const PLAIN_COMMANDS = 'pPdDnNgGhHx=zF';

/**
 * Reads a sed script and reports anything that is not plainly read-only: `w`/`W` (write a file),
 * `e` and the `s///e` flag (run a command), `s///w`, and anything this reader does not know
 * (a, i, c, r, R, v, …), which is refused rather than guessed at.
 */
export function sedScriptProblem(script: string): string | undefined {
  const reader = new ScriptReader(script);
  try {
    reader.readScript();
    return undefined;
  } catch (error) {
    if (error instanceof SedRefusal) return error.message;
    throw error;
  }
}

class SedRefusal extends Error {}

class ScriptReader {
  private i = 0;
  private depth = 0;

  constructor(private readonly s: string) {}

  readScript(): void {
    const s = this.s;
    for (;;) {
      while (this.i < s.length && ' \t\n;'.includes(s[this.i])) this.i++;
      if (this.i >= s.length) break;
      if (s[this.i] === '#') {
        this.skipLine();
        continue;
      }
      this.readAddresses();
      const command = s[this.i++];
      this.readCommand(command);
      if (command === '{') continue;
      this.skipBlanks();
      if (this.i < s.length && !';\n}#'.includes(s[this.i]))
        throw new SedRefusal(`unexpected text after ${command}`);
    }
    if (this.depth !== 0) throw new SedRefusal('unbalanced braces');
  }

  private readCommand(command: string | undefined): void {
    if (command === undefined) throw new SedRefusal('address without a command');
    if (command === '{') {
      this.depth++;
    } else if (command === '}') {
      if (--this.depth < 0) throw new SedRefusal('unbalanced braces');
    } else if (PLAIN_COMMANDS.includes(command)) {
      // no argument
    } else if ('lqQ'.includes(command)) {
      this.skipBlanks();
      while (/\d/.test(this.s[this.i] ?? '')) this.i++;
    } else if (command === 's') {
      this.readSubstitute();
    } else if (command === 'y') {
      const delimiter = this.delimiter();
      this.readDelimited(delimiter);
      this.readDelimited(delimiter);
    } else if ('btT:'.includes(command)) {
      // A label runs to `;` or a newline (GNU); a sed reading to the end of the line sees less, not more.
      this.skipBlanks();
      const start = this.i;
      while (this.i < this.s.length && !';\n'.includes(this.s[this.i])) this.i++;
      if (command === ':' && this.i === start) throw new SedRefusal('empty label');
    } else {
      throw new SedRefusal(`command ${JSON.stringify(command)} is not read-only (or not understood)`);
    }
  }

  private readAddresses(): void {
    if (!this.readAddress()) return;
    this.skipBlanks();
    if (this.s[this.i] === ',') {
      this.i++;
      this.skipBlanks();
      if ('+~'.includes(this.s[this.i] ?? ' ')) {
        this.i++;
        this.readNumber();
      } else if (!this.readAddress()) throw new SedRefusal('incomplete address range');
    }
    this.skipBlanks();
    while (this.s[this.i] === '!') {
      this.i++;
      this.skipBlanks();
    }
  }

  private readAddress(): boolean {
    const c = this.s[this.i];
    if (c === undefined) return false;
    if (/\d/.test(c)) {
      this.readNumber();
      if (this.s[this.i] === '~') {
        this.i++;
        this.readNumber();
      }
      return true;
    }
    if (c === '$') {
      this.i++;
      return true;
    }
    if (c !== '/' && c !== '\\') return false;
    if (c === '\\') this.i++;
    this.readRegex(this.delimiter());
    while ('IM'.includes(this.s[this.i] ?? ' ')) this.i++;
    return true;
  }

  private readSubstitute(): void {
    const delimiter = this.delimiter();
    this.readRegex(delimiter);
    this.readDelimited(delimiter);
    while (this.i < this.s.length && !';\n}# \t'.includes(this.s[this.i])) {
      const flag = this.s[this.i++];
      if (flag === 'w' || flag === 'e')
        throw new SedRefusal(`the s///${flag} flag ${flag === 'w' ? 'writes a file' : 'runs a command'}`);
      if (!/[gpiImM0-9]/.test(flag)) throw new SedRefusal(`unknown s/// flag ${JSON.stringify(flag)}`);
    }
  }

  private delimiter(): string {
    const c = this.s[this.i++];
    if (c === undefined || c === '\n' || c === '\\') throw new SedRefusal('bad delimiter');
    return c;
  }

  /**
   * A regex up to the delimiter. Whether a delimiter inside `[…]` ends the regex differs between
   * sed implementations, so a bracket expression left open (or holding a backslash) is refused.
   */
  private readRegex(delimiter: string): void {
    const regex = this.readDelimited(delimiter);
    if (hasAmbiguousBracket(regex))
      throw new SedRefusal('bracket expression that different seds read differently');
  }

  private readDelimited(delimiter: string): string {
    const start = this.i;
    for (; this.i < this.s.length; this.i++) {
      const c = this.s[this.i];
      if (c === '\\') this.i++;
      else if (c === delimiter) return this.s.slice(start, this.i++);
      else if (c === '\n') break;
    }
    throw new SedRefusal('unterminated regex or replacement');
  }

  private readNumber(): void {
    const start = this.i;
    while (/\d/.test(this.s[this.i] ?? '')) this.i++;
    if (this.i === start) throw new SedRefusal('expected a number');
  }

  private skipBlanks(): void {
    while (this.s[this.i] === ' ' || this.s[this.i] === '\t') this.i++;
  }

  private skipLine(): void {
    while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++;
  }
}

function hasAmbiguousBracket(regex: string): boolean {
  for (let k = 0; k < regex.length; k++) {
    if (regex[k] === '\\') {
      k++;
      continue;
    }
    if (regex[k] !== '[') continue;
    let m = k + 1;
    if (regex[m] === '^') m++;
    if (regex[m] === ']') m++;
    for (; m < regex.length && regex[m] !== ']'; m++) {
      if (regex[m] === '\\') return true;
      if (regex[m] === '[' && ':.='.includes(regex[m + 1] ?? ' ')) {
        const end = regex.indexOf(`${regex[m + 1]}]`, m + 2);
        if (end < 0) return true;
        m = end + 1;
      }
    }
    if (m >= regex.length) return true;
    k = m;
  }
  return false;
}
